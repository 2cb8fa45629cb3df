// Is a 32-byte string a valid compressed ed25519 point? A program-derived address must not be one.
// Decoding (RFC 8032 §5.1.3, without the y < p check, as Solana's curve25519-dalek): y is the low
// 255 bits, x² = (y² − 1) / (d·y² + 1) mod p. A point exists iff u·v is a square mod p (v is never
// 0 because d is not a square); x = 0 with the sign bit set is invalid.
//
// No BigInt on the hot path: the field products use sixteen 16-bit limbs in doubles, and
// squareness is decided by the Jacobi symbol in `./jacobi.ts`. Nothing is allocated per call.
import { jacobiOfField } from "./jacobi.ts"

const FIELD_LIMBS = 16
const RADIX = 65536
const INVERSE_RADIX = 1 / RADIX

/** 2^255 − 19 and d = −121665/121666 in 16-bit limbs, least significant first. */
const P_FIELD = Float64Array.of(
  0xffed, 0xffff, 0xffff, 0xffff, 0xffff, 0xffff, 0xffff, 0xffff,
  0xffff, 0xffff, 0xffff, 0xffff, 0xffff, 0xffff, 0xffff, 0x7fff
)
const D_FIELD = Float64Array.of(
  0x78a3, 0x1359, 0x4dca, 0x75eb, 0xd8ab, 0x4141, 0x0a4d, 0x0070,
  0xe898, 0x7779, 0x4079, 0x8cc7, 0xfe73, 0x2b6f, 0x6cee, 0x5203
)

const y = new Float64Array(FIELD_LIMBS)
const y2 = new Float64Array(FIELD_LIMBS)
const u = new Float64Array(FIELD_LIMBS)
const v = new Float64Array(FIELD_LIMBS)
const uv = new Float64Array(FIELD_LIMBS)
const reduced = new Float64Array(FIELD_LIMBS)

/** Brings every limb into [0, 2^16), folding the carry out of the top limb back as ×38 (2^256 ≡ 38 mod p). */
const carry = (limbs: Float64Array): void => {
  let overflow = 0
  for (let index = 0; index < FIELD_LIMBS; index++) {
    const value = limbs[index]! + overflow
    // × 2^-16 is exact, and cheaper than a division
    overflow = Math.floor(value * INVERSE_RADIX)
    limbs[index] = value - overflow * RADIX
  }
  limbs[0] = limbs[0]! + 38 * overflow
}

/**
 * out = left · right mod p (limbs of both inputs below 2^17, so every sum stays exact: below 2^44).
 * Column by column, the column k + 16 folded into column k as ×38: one store per limb rather than
 * a load and a store per partial product. `out` must not be one of the inputs.
 */
const multiply = (out: Float64Array, left: Float64Array, right: Float64Array): void => {
  for (let k = 0; k < FIELD_LIMBS; k++) {
    let low = 0
    for (let i = 0; i <= k; i++) low += left[i]! * right[k - i]!
    let high = 0
    for (let i = k + 1; i < FIELD_LIMBS; i++) high += left[i]! * right[FIELD_LIMBS + k - i]!
    out[k] = low + 38 * high
  }
  carry(out)
  carry(out)
}

/** The canonical representative in [0, p). */
const canonical = (limbs: Float64Array): void => {
  carry(limbs)
  carry(limbs)
  carry(limbs)
  for (let pass = 0; pass < 2; pass++) {
    let borrow = 0
    for (let index = 0; index < FIELD_LIMBS; index++) {
      const difference = limbs[index]! - P_FIELD[index]! - borrow
      borrow = difference < 0 ? 1 : 0
      reduced[index] = difference < 0 ? difference + RADIX : difference
    }
    if (borrow === 0) limbs.set(reduced)
  }
}

const isZero = (limbs: Float64Array): boolean => {
  for (let index = 0; index < FIELD_LIMBS; index++) if (limbs[index] !== 0) return false
  return true
}

export const isOnEd25519Curve = (bytes: Uint8Array): boolean => {
  if (bytes.length !== 32) return false
  for (let index = 0; index < FIELD_LIMBS; index++) y[index] = bytes[2 * index]! | (bytes[2 * index + 1]! << 8)
  y[FIELD_LIMBS - 1] = y[FIELD_LIMBS - 1]! & 0x7fff
  multiply(y2, y, y)
  u.set(y2)
  u[0] = u[0]! - 1
  multiply(v, D_FIELD, y2)
  v[0] = v[0]! + 1
  canonical(u)
  if (isZero(u)) return (bytes[31]! & 0x80) === 0
  multiply(uv, u, v)
  canonical(uv)
  return jacobiOfField(uv) === 1
}
