import { GenerationalCache } from "../generationalCache.ts"
import { decodeBase58Bytes32, encodeBase58 } from "./base58.ts"

// Memos between address text and its 32 bytes, both ways. Text → bytes is shared by PDA seeds,
// derived addresses and the transaction compiler: an address derived or decoded once is not
// decoded again. Bytes → text serves readers of account data and wire messages, which see the
// same few thousand keys over and over: the bytes' latin1 string is a cheaper key than base58.

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

const textCache = new GenerationalCache<string, string>(20_000)

/** The base58 text of 32 address bytes (read at once: a view into mutable data is fine). */
export const addressTextOf = (bytes: Uint8Array): string => {
  const key = Buffer.from(bytes.buffer, bytes.byteOffset, 32).toString("latin1")
  const cached = textCache.get(key)
  if (cached !== undefined) return cached
  const text = encodeBase58(bytes.length === 32 ? bytes : bytes.subarray(0, 32))
  textCache.set(key, text)
  return text
}
