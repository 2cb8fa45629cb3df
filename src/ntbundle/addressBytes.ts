import { GenerationalCache } from "../generationalCache.ts"
import { decodeBase58Bytes32 } from "./base58.ts"

// One memo of address text → its 32 bytes, shared by PDA seeds, derived addresses and the
// transaction compiler: an address that was derived or decoded once is not decoded again.

const cache = new GenerationalCache<string, Uint8Array>(100_000)

/** The 32 bytes of a base58 address (shared between callers: never mutate); null when it is not one. */
export const addressBytesOf = (address: string): Uint8Array | null => {
  const cached = cache.get(address)
  if (cached !== undefined) return cached
  const bytes = decodeBase58Bytes32(address)
  if (bytes !== null) cache.set(address, bytes)
  return bytes
}

/** Records bytes already known for an address (a freshly derived one); they must not be mutated later. */
export const rememberAddressBytes = (address: string, bytes: Uint8Array): void => cache.set(address, bytes)
