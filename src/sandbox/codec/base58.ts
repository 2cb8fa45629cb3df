/**
 * Base58 (Bitcoin alphabet), as Solana uses for addresses, signatures and blockhashes.
 * Written for short inputs (32 and 64 bytes) on hot paths: no bigint, no allocation per digit.
 */
const ALPHABET = "123456789ABCDEFGHJKLMNPQRSTUVWXYZabcdefghijkmnopqrstuvwxyz"
const ALPHABET_CODES = Uint8Array.from(ALPHABET, (char) => char.charCodeAt(0))
const LATIN1 = new TextDecoder("latin1")
const DIGIT_OF_CHAR = new Int8Array(128).fill(-1)
for (let index = 0; index < ALPHABET.length; index++) DIGIT_OF_CHAR[ALPHABET.charCodeAt(index)] = index

// Digits are accumulated in limbs of base 58^5 (< 2^30), five base58 digits per limb: the
// quadratic loop runs five times fewer steps than digit by digit; products stay below 2^53.
const LIMB = 58 ** 5

export const encodeBase58 = (bytes: Uint8Array): string => {
  let leadingZeros = 0
  while (leadingZeros < bytes.length && bytes[leadingZeros] === 0) leadingZeros++
  const limbs = new Float64Array(Math.ceil(((bytes.length - leadingZeros) * 1.37) / 5) + 1)
  let used = 0
  for (let index = leadingZeros; index < bytes.length; index++) {
    let carry = bytes[index]!
    for (let limb = 0; limb < used; limb++) {
      const value = limbs[limb]! * 256 + carry
      carry = Math.floor(value / LIMB)
      limbs[limb] = value - carry * LIMB
    }
    while (carry > 0) {
      const next = Math.floor(carry / LIMB)
      limbs[used++] = carry - next * LIMB
      carry = next
    }
  }
  // Unpack limbs into digits (least significant first), then drop the top limb's leading zeros.
  const digits = new Uint8Array(used * 5)
  for (let limb = 0; limb < used; limb++) {
    let value = limbs[limb]!
    for (let position = 0; position < 5; position++) {
      digits[limb * 5 + position] = value % 58
      value = Math.floor(value / 58)
    }
  }
  let significant = digits.length
  while (significant > 0 && digits[significant - 1] === 0) significant--
  // Built as one flat string: concatenating characters would leave a rope of many small nodes,
  // which costs a kilobyte per address kept as a map key.
  const codes = new Uint8Array(leadingZeros + significant)
  codes.fill(49, 0, leadingZeros)
  for (let digit = 0; digit < significant; digit++) codes[leadingZeros + digit] = ALPHABET_CODES[digits[significant - 1 - digit]!]!
  return LATIN1.decode(codes)
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
