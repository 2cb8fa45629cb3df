/** Solana's compact-u16 ("shortvec") length prefix of the wire format: 7 bits a byte, high bit = more. */
export const shortVecLength = (value: number): number => (value < 0x80 ? 1 : value < 0x4000 ? 2 : 3)

/** Writes `value` as a shortvec at `offset`; returns the offset after it. */
export const writeShortVec = (out: Uint8Array, offset: number, value: number): number => {
  let rest = value
  let at = offset
  for (;;) {
    const low = rest & 0x7f
    rest >>= 7
    if (rest === 0) {
      out[at++] = low
      return at
    }
    out[at++] = low | 0x80
  }
}
