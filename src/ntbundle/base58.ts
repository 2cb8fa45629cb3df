// Base58 for 32-byte values (addresses, blockhashes) with fixed-width 32-bit limbs instead of
// BigInt: kit's general codec spends ~15-25 µs per address, which dominates PDA derivation on the
// transaction-builder hot path. Results are identical to kit's codec (tested).
import type { Address } from "@solana/kit"

const ALPHABET = "123456789ABCDEFGHJKLMNPQRSTUVWXYZabcdefghijkmnopqrstuvwxyz"
const DIGIT_OF = new Int8Array(128).fill(-1)
for (let i = 0; i < ALPHABET.length; i++) DIGIT_OF[ALPHABET.charCodeAt(i)] = i

const LIMBS = 8 // 8 × 32 bits = 32 bytes, most significant limb first
const TWO_POW_32 = 0x1_0000_0000

const ALPHABET_CODES = Uint8Array.from(ALPHABET, (c) => c.charCodeAt(0))
const MAX_DIGITS = 44
const digitScratch = new Uint8Array(MAX_DIGITS)

/**
 * Base58 text of exactly 32 bytes (leading zero bytes become leading '1's). The digits are written
 * into a scratch buffer and turned into one flat string: prepending characters one by one would
 * leave a chain of ~44 string nodes per address, which a projection of a million keys pays in memory.
 */
export const encodeBase58Bytes32 = (bytes: Uint8Array): string => {
  const limbs = new Array<number>(LIMBS)
  for (let i = 0; i < LIMBS; i++) {
    limbs[i] =
      ((bytes[4 * i] ?? 0) * 0x100_0000 + ((bytes[4 * i + 1] ?? 0) << 16) + ((bytes[4 * i + 2] ?? 0) << 8) + (bytes[4 * i + 3] ?? 0))
  }
  let leadingZeros = 0
  while (leadingZeros < 32 && bytes[leadingZeros] === 0) leadingZeros++
  let start = MAX_DIGITS
  let first = 0 // index of the first non-zero limb
  while (first < LIMBS && limbs[first] === 0) first++
  while (first < LIMBS) {
    // divide the whole number by 58; remainder * 2^32 + limb stays below 2^38, exact in a double
    let remainder = 0
    for (let i = first; i < LIMBS; i++) {
      const value = remainder * TWO_POW_32 + (limbs[i] ?? 0)
      const quotient = Math.floor(value / 58)
      limbs[i] = quotient
      remainder = value - quotient * 58
    }
    digitScratch[--start] = ALPHABET_CODES[remainder]!
    while (first < LIMBS && limbs[first] === 0) first++
  }
  for (let i = 0; i < leadingZeros; i++) digitScratch[--start] = 49 /* '1' */
  return String.fromCharCode.apply(null, digitScratch.subarray(start) as unknown as Array<number>)
}

/** The 32 bytes a base58 string stands for; null when it is not base58 or not exactly 32 bytes. */
export const decodeBase58Bytes32 = (text: string): Uint8Array | null => {
  if (text.length === 0 || text.length > 44) return null
  const limbs = new Array<number>(LIMBS).fill(0)
  let leadingOnes = 0
  while (leadingOnes < text.length && text.charCodeAt(leadingOnes) === 49 /* '1' */) leadingOnes++
  for (let c = 0; c < text.length; c++) {
    const code = text.charCodeAt(c)
    const digit = code < 128 ? (DIGIT_OF[code] ?? -1) : -1
    if (digit < 0) return null
    // multiply the whole number by 58 and add the digit, least significant limb first
    let carry = digit
    for (let i = LIMBS - 1; i >= 0; i--) {
      const value = (limbs[i] ?? 0) * 58 + carry
      carry = Math.floor(value / TWO_POW_32)
      limbs[i] = value - carry * TWO_POW_32
    }
    if (carry !== 0) return null // more than 32 bytes
  }
  const bytes = new Uint8Array(32)
  for (let i = 0; i < LIMBS; i++) {
    const limb = limbs[i] ?? 0
    bytes[4 * i] = Math.floor(limb / 0x100_0000)
    bytes[4 * i + 1] = (limb >>> 16) & 0xff
    bytes[4 * i + 2] = (limb >>> 8) & 0xff
    bytes[4 * i + 3] = limb & 0xff
  }
  // base58 keeps leading zero bytes as leading '1's, one for one
  let leadingZeros = 0
  while (leadingZeros < 32 && bytes[leadingZeros] === 0) leadingZeros++
  return leadingOnes === leadingZeros ? bytes : null
}

/** A 32-byte public key as an `Address` (same text as kit's address decoder). */
export const addressFromBytes = (bytes: Uint8Array): Address => encodeBase58Bytes32(bytes) as Address
