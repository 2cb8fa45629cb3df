/**
 * Base58 (Bitcoin alphabet), as Solana uses for addresses, signatures and blockhashes.
 * Written for short inputs (32 and 64 bytes) on hot paths: no bigint, no allocation per digit.
 */
const ALPHABET = "123456789ABCDEFGHJKLMNPQRSTUVWXYZabcdefghijkmnopqrstuvwxyz"
const ALPHABET_CODES = Uint8Array.from(ALPHABET, (char) => char.charCodeAt(0))
const LATIN1 = new TextDecoder("latin1")
const DIGIT_OF_CHAR = new Int8Array(128).fill(-1)
for (let index = 0; index < ALPHABET.length; index++) DIGIT_OF_CHAR[ALPHABET.charCodeAt(index)] = index

export const encodeBase58 = (bytes: Uint8Array): string => {
  let leadingZeros = 0
  while (leadingZeros < bytes.length && bytes[leadingZeros] === 0) leadingZeros++
  // log(256) / log(58) ~ 1.366: enough base58 digits for the remaining bytes.
  const digits = new Uint8Array(Math.ceil((bytes.length - leadingZeros) * 1.37) + 1)
  let used = 0
  for (let index = leadingZeros; index < bytes.length; index++) {
    let carry = bytes[index]!
    for (let digit = 0; digit < used; digit++) {
      carry += digits[digit]! * 256
      digits[digit] = carry % 58
      carry = (carry / 58) | 0
    }
    while (carry > 0) {
      digits[used++] = carry % 58
      carry = (carry / 58) | 0
    }
  }
  // Built as one flat string: concatenating characters would leave a rope of many small nodes,
  // which costs a kilobyte per address kept as a map key.
  const codes = new Uint8Array(leadingZeros + used)
  codes.fill(49, 0, leadingZeros)
  for (let digit = 0; digit < used; digit++) codes[leadingZeros + digit] = ALPHABET_CODES[digits[used - 1 - digit]!]!
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
