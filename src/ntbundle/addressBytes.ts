import { AdmittedCache } from "../admittedCache.ts"
import { decodeBase58Bytes32, encodeBase58 } from "./base58.ts"

// Memos between address text and its 32 bytes, both ways. Text → bytes is shared by PDA seeds,
// derived addresses and the transaction compiler: within a request an address is decoded once,
// and one that comes back later (a vault, a mint, a wallet building again) is kept (see
// AdmittedCache: a new wallet's addresses are not). Bytes → text serves readers of account data and wire messages, which see the
// same few thousand keys over and over: the bytes' latin1 string is a cheaper key than base58.

const cache = new AdmittedCache<Uint8Array>(100_000)

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

// Bytes → text is keyed by a number mixed from the key's first and last four bytes (keys are
// uniformly spread; the few well-known ones that share a prefix differ at the end), with the bytes
// compared on a hit: no string built per lookup. Two generations, as GenerationalCache keeps them.
interface TextEntry {
  readonly key: Uint8Array
  readonly text: string
  readonly next: TextEntry | undefined
}

const TEXT_GENERATION = 10_000
let youngTexts = new Map<number, TextEntry>()
let oldTexts = new Map<number, TextEntry>()
let youngCount = 0

const keyHash = (bytes: Uint8Array): number =>
  (bytes[0]! | (bytes[1]! << 8) | (bytes[2]! << 16) | (bytes[3]! << 24)) ^
  Math.imul(bytes[28]! | (bytes[29]! << 8) | (bytes[30]! << 16) | (bytes[31]! << 24), 0x9e3779b1)

const sameKey = (key: Uint8Array, bytes: Uint8Array): boolean => {
  for (let i = 0; i < 32; i++) if (key[i] !== bytes[i]) return false
  return true
}

const findText = (texts: Map<number, TextEntry>, hash: number, bytes: Uint8Array): TextEntry | undefined => {
  for (let entry = texts.get(hash); entry !== undefined; entry = entry.next) if (sameKey(entry.key, bytes)) return entry
  return undefined
}

const rememberText = (hash: number, key: Uint8Array, text: string): void => {
  if (youngCount >= TEXT_GENERATION) {
    oldTexts = youngTexts
    youngTexts = new Map()
    youngCount = 0
  }
  youngTexts.set(hash, { key, text, next: youngTexts.get(hash) })
  youngCount++
}

/** The base58 text of 32 address bytes (read at once: a view into mutable data is fine). */
export const addressTextOf = (bytes: Uint8Array): string => {
  const hash = keyHash(bytes)
  const young = findText(youngTexts, hash, bytes)
  if (young !== undefined) return young.text
  const old = findText(oldTexts, hash, bytes)
  if (old !== undefined) {
    rememberText(hash, old.key, old.text)
    return old.text
  }
  const key = bytes.slice(0, 32)
  const text = encodeBase58(key)
  rememberText(hash, key, text)
  return text
}
