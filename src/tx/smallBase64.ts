// Standard base64 (with padding) of a few bytes, in JS: instruction data is a handful to a few
// dozen bytes, where a Buffer view plus its native encoder costs several times the encoding.
const ALPHABET = "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/"
const CODES = Uint8Array.from(ALPHABET, (char) => char.charCodeAt(0))
const PAD = "=".charCodeAt(0)
/** Inputs up to this length are encoded here; longer ones by Buffer. */
const MAX_SMALL = 96

const scratch = new Array<number>(Math.ceil(MAX_SMALL / 3) * 4).fill(0)

export const base64Of = (bytes: ArrayLike<number> & { readonly buffer: ArrayBufferLike; readonly byteOffset: number; readonly byteLength: number }): string => {
  const length = bytes.length
  if (length > MAX_SMALL) return Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength).toString("base64")
  const out = scratch
  let at = 0
  let index = 0
  for (; index + 2 < length; index += 3) {
    const triple = (bytes[index]! << 16) | (bytes[index + 1]! << 8) | bytes[index + 2]!
    out[at++] = CODES[triple >>> 18]!
    out[at++] = CODES[(triple >>> 12) & 63]!
    out[at++] = CODES[(triple >>> 6) & 63]!
    out[at++] = CODES[triple & 63]!
  }
  const rest = length - index
  if (rest === 1) {
    const first = bytes[index]!
    out[at++] = CODES[first >>> 2]!
    out[at++] = CODES[(first & 3) << 4]!
    out[at++] = PAD
    out[at++] = PAD
  } else if (rest === 2) {
    const pair = (bytes[index]! << 8) | bytes[index + 1]!
    out[at++] = CODES[pair >>> 10]!
    out[at++] = CODES[(pair >>> 4) & 63]!
    out[at++] = CODES[(pair & 15) << 2]!
    out[at++] = PAD
  }
  return String.fromCharCode.apply(null, out.slice(0, at))
}
