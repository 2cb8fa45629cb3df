// Is a 32-byte string a valid compressed ed25519 point? A program-derived address must not be one.
// Decoding (RFC 8032 §5.1.3): y is the low 255 bits, x² = (y² − 1) / (d·y² + 1) mod p. A point
// exists iff that ratio is a square mod p, i.e. iff u·v is (v is never 0 because d is not a square);
// x = 0 with the sign bit set is invalid. Squareness is decided with the Jacobi symbol (a gcd-like
// loop), about five times faster on BigInt than the Euler-criterion exponentiation.

const P = 2n ** 255n - 19n
const D = 37095705934669439343138083508754565189542113879843219016388785533085940283555n

/** Jacobi symbol (a / n) for odd n > 0: 1, −1, or 0 when they share a factor. */
const jacobiSymbol = (value: bigint, modulus: bigint): number => {
  let a = value % modulus
  let n = modulus
  let sign = 1
  while (a !== 0n) {
    while ((a & 1n) === 0n) {
      a >>= 1n
      const nMod8 = n & 7n
      if (nMod8 === 3n || nMod8 === 5n) sign = -sign
    }
    const swapped = a
    a = n
    n = swapped
    if ((a & 3n) === 3n && (n & 3n) === 3n) sign = -sign
    a %= n
  }
  return n === 1n ? sign : 0
}

const yCoordinate = (bytes: Uint8Array): bigint => {
  const bigEndian = Buffer.from(bytes).reverse()
  bigEndian[0] = (bigEndian[0] ?? 0) & 0x7f
  return BigInt(`0x${bigEndian.toString("hex")}`)
}

export const isOnEd25519Curve = (bytes: Uint8Array): boolean => {
  if (bytes.length !== 32) return false
  const y = yCoordinate(bytes) % P
  const y2 = (y * y) % P
  const u = (y2 - 1n + P) % P
  const v = (D * y2 + 1n) % P
  if (u === 0n) return ((bytes[31] ?? 0) & 0x80) === 0
  return jacobiSymbol((u * v) % P, P) === 1
}
