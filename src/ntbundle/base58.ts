// Base58 (Bitcoin alphabet), as Solana uses for addresses, signatures and blockhashes: one
// implementation for the gateway and the sandbox. Written for short inputs (32 and 64 bytes) on
// hot paths: no BigInt, no allocation per digit; results equal kit's codecs (tested).
import type { Address } from "@solana/kit"

const ALPHABET = "123456789ABCDEFGHJKLMNPQRSTUVWXYZabcdefghijkmnopqrstuvwxyz"
const ALPHABET_CODES = Uint8Array.from(ALPHABET, (char) => char.charCodeAt(0))
const DIGIT_OF_CHAR = new Int8Array(128).fill(-1)
for (let index = 0; index < ALPHABET.length; index++) DIGIT_OF_CHAR[ALPHABET.charCodeAt(index)] = index

// Digits are accumulated in limbs of base 58^5 (< 2^30), five base58 digits per limb: the
// quadratic loop runs five times fewer steps than digit by digit; products stay below 2^53.
const LIMB = 58 ** 5
const MAX_SCRATCH = 128
const limbScratch = new Float64Array(MAX_SCRATCH)
const codeScratch = new Uint8Array(MAX_SCRATCH * 5)

/** One flat string from character codes (concatenation would leave a rope of small nodes per key). */
const latin1 = (codes: Uint8Array): string =>
  codes.length <= 1024
    ? String.fromCharCode.apply(null, codes as unknown as Array<number>)
    : Buffer.from(codes.buffer, codes.byteOffset, codes.length).toString("latin1")

export const encodeBase58 = (bytes: Uint8Array): string => {
  let leadingZeros = 0
  while (leadingZeros < bytes.length && bytes[leadingZeros] === 0) leadingZeros++
  const limbCount = Math.ceil(((bytes.length - leadingZeros) * 1.37) / 5) + 1
  const limbs = limbCount <= MAX_SCRATCH ? limbScratch : new Float64Array(limbCount)
  let used = 0
  // two bytes per step (limb · 2^16 + carry stays below 2^47): half the passes over the limbs;
  // an odd count starts with one byte
  let index = leadingZeros
  while (index < bytes.length) {
    const pair = (bytes.length - index) % 2 === 0
    let carry = pair ? bytes[index]! * 256 + bytes[index + 1]! : bytes[index]!
    const radix = pair ? 65536 : 256
    index += pair ? 2 : 1
    for (let limb = 0; limb < used; limb++) {
      const value = limbs[limb]! * radix + carry
      carry = Math.floor(value / LIMB)
      limbs[limb] = value - carry * LIMB
    }
    while (carry > 0) {
      const next = Math.floor(carry / LIMB)
      limbs[used++] = carry - next * LIMB
      carry = next
    }
  }
  // Digits come out least significant first: write them from the end of the output backwards,
  // then drop the top limb's leading zero digits.
  const total = leadingZeros + used * 5
  const codes = total <= codeScratch.length ? codeScratch : new Uint8Array(total)
  let at = total
  for (let limb = 0; limb < used; limb++) {
    let value = limbs[limb]!
    for (let position = 0; position < 5; position++) {
      const next = Math.floor(value / 58)
      codes[--at] = value - next * 58
      value = next
    }
  }
  let first = at
  while (first < total && codes[first] === 0) first++
  const start = first - leadingZeros
  for (let index = start; index < first; index++) codes[index] = 49 // '1' per leading zero byte
  for (let index = first; index < total; index++) codes[index] = ALPHABET_CODES[codes[index]!]!
  return latin1(codes.subarray(start, total))
}

/** Decodes base58, or returns undefined when the text holds a character outside the alphabet. */
export const decodeBase58 = (text: string): Uint8Array | undefined => {
  let leadingOnes = 0
  while (leadingOnes < text.length && text.charCodeAt(leadingOnes) === 49) leadingOnes++
  const bytes = new Uint8Array(Math.ceil((text.length - leadingOnes) * 0.733) + 1)
  let used = 0
  for (let index = leadingOnes; index < text.length; index++) {
    const code = text.charCodeAt(index)
    const value = code < 128 ? DIGIT_OF_CHAR[code]! : -1
    if (value < 0) return undefined
    let carry = value
    for (let position = 0; position < used; position++) {
      carry += bytes[position]! * 58
      bytes[position] = carry & 0xff
      carry >>= 8
    }
    while (carry > 0) {
      bytes[used++] = carry & 0xff
      carry >>= 8
    }
  }
  const out = new Uint8Array(leadingOnes + used)
  for (let position = 0; position < used; position++) out[leadingOnes + position] = bytes[used - 1 - position]!
  return out
}

/** Decodes base58 text that must hold exactly `length` bytes (an address: 32, a signature: 64). */
export const decodeBase58Exact = (text: string, length: number): Uint8Array | undefined => {
  if (text.length === 0 || text.length > Math.ceil(length * 1.37) + 1) return undefined
  const bytes = decodeBase58(text)
  return bytes !== undefined && bytes.length === length ? bytes : undefined
}

/** Base58 text of a 32-byte value (an address or a blockhash). */
export const encodeBase58Bytes32 = (bytes: Uint8Array): string => {
  const key = bytes.length === 32 ? bytes : bytes.subarray(0, 32)
  // The all-zero key (the system program, and "none" in optional pubkey fields) is common in accounts.
  return key.length === 32 && isZeroKey(key) ? ZERO_KEY : encodeBase58(key)
}

const ZERO_KEY = "1".repeat(32)

const isZeroKey = (key: Uint8Array): boolean => {
  for (let i = 0; i < key.length; i++) if (key[i] !== 0) return false
  return true
}

/** The 32 bytes a base58 string stands for; null when it is not base58 or not exactly 32 bytes. */
export const decodeBase58Bytes32 = (text: string): Uint8Array | null => decodeBase58Exact(text, 32) ?? null

/** A 32-byte public key as an `Address` (same text as kit's address decoder). */
export const addressFromBytes = (bytes: Uint8Array): Address => encodeBase58Bytes32(bytes) as Address
