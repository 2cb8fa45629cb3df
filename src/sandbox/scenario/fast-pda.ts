import { createHash } from "node:crypto"

/**
 * Program-derived addresses for bulk genesis (a million positions): the same derivation as
 * `src/ntbundle/pdas` (first bump from 255 whose hash is not an ed25519 point), with the curve
 * test done without BigInt: field arithmetic on sixteen 16-bit limbs held in doubles, then a
 * binary Jacobi symbol on 32-bit limbs. It allocates nothing per call, which matters as much as
 * the arithmetic at this scale. Checked against `src/ntbundle/ed25519` in the tests.
 *
 * A compressed point with y (low 255 bits) exists iff u·v is a square mod p, where
 * u = y² − 1 and v = d·y² + 1 (x = 0 with the sign bit set is invalid).
 */
const P = 2n ** 255n - 19n
const D = 37095705934669439343138083508754565189542113879843219016388785533085940283555n
const LIMBS = 8
const FIELD_LIMBS = 16
const RADIX = 65536

const fieldOf = (value: bigint): Float64Array => {
  const out = new Float64Array(FIELD_LIMBS)
  for (let index = 0; index < FIELD_LIMBS; index++) out[index] = Number((value >> BigInt(16 * index)) & 0xffffn)
  return out
}
const D_FIELD = fieldOf(D)
const P_FIELD = fieldOf(P)
const product = new Float64Array(2 * FIELD_LIMBS - 1)
const y = new Float64Array(FIELD_LIMBS)
const y2 = new Float64Array(FIELD_LIMBS)
const u = new Float64Array(FIELD_LIMBS)
const v = new Float64Array(FIELD_LIMBS)
const uv = new Float64Array(FIELD_LIMBS)
const reduced = new Float64Array(FIELD_LIMBS)

/** Brings every limb into [0, 2^16), folding the carry out of the top limb back as ×38 (2^256 ≡ 38 mod p). */
const carry = (limbs: Float64Array): void => {
  for (let index = 0; index < FIELD_LIMBS; index++) {
    const overflow = Math.floor(limbs[index]! / RADIX)
    limbs[index] = limbs[index]! - overflow * RADIX
    if (index < FIELD_LIMBS - 1) limbs[index + 1] = limbs[index + 1]! + overflow
    else limbs[0] = limbs[0]! + 38 * overflow
  }
}

const multiply = (out: Float64Array, left: Float64Array, right: Float64Array): void => {
  product.fill(0)
  for (let i = 0; i < FIELD_LIMBS; i++) {
    const factor = left[i]!
    for (let j = 0; j < FIELD_LIMBS; j++) product[i + j] = product[i + j]! + factor * right[j]!
  }
  for (let index = 0; index < FIELD_LIMBS - 1; index++) out[index] = product[index]! + 38 * product[index + FIELD_LIMBS]!
  out[FIELD_LIMBS - 1] = product[FIELD_LIMBS - 1]!
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

const a = new Uint32Array(LIMBS)
const n = new Uint32Array(LIMBS)
const P_LIMBS = new Uint32Array(LIMBS)
for (let index = 0; index < LIMBS; index++) P_LIMBS[index] = P_FIELD[2 * index]! + P_FIELD[2 * index + 1]! * RADIX

const significantLength = (limbs: Uint32Array, length: number): number => {
  while (length > 0 && limbs[length - 1] === 0) length--
  return length
}

/** Jacobi symbol (a / n) for the limbs in `a` and odd `n`; destroys both. */
const jacobi = (): number => {
  let x = a
  let y = n
  let xLength = significantLength(x, LIMBS)
  let yLength = significantLength(y, LIMBS)
  let sign = 1
  for (;;) {
    if (xLength === 0) return yLength === 1 && y[0] === 1 ? sign : 0
    let word = 0
    while (x[word] === 0) word++
    const low = x[word]!
    const bits = 31 - Math.clz32(low & -low)
    if (((word * 32 + bits) & 1) === 1) {
      const residue = y[0]! & 7
      if (residue === 3 || residue === 5) sign = -sign
    }
    if (word > 0) {
      for (let index = 0; index + word < xLength; index++) x[index] = x[index + word]!
      for (let index = xLength - word; index < xLength; index++) x[index] = 0
      xLength -= word
    }
    if (bits > 0) {
      for (let index = 0; index < xLength - 1; index++) x[index] = (x[index]! >>> bits) | (x[index + 1]! << (32 - bits))
      x[xLength - 1] = x[xLength - 1]! >>> bits
    }
    xLength = significantLength(x, xLength)
    let less = xLength < yLength
    if (xLength === yLength) {
      let index = xLength - 1
      while (index >= 0 && x[index] === y[index]) index--
      less = index >= 0 && x[index]! < y[index]!
    }
    if (less) {
      const swapped = x
      x = y
      y = swapped
      const swappedLength = xLength
      xLength = yLength
      yLength = swappedLength
      if ((x[0]! & 3) === 3 && (y[0]! & 3) === 3) sign = -sign
    }
    let borrow = 0
    for (let index = 0; index < xLength; index++) {
      const difference = x[index]! - (index < yLength ? y[index]! : 0) - borrow
      borrow = difference < 0 ? 1 : 0
      x[index] = difference >>> 0
    }
    xLength = significantLength(x, xLength)
  }
}

export const isOnCurve = (bytes: Uint8Array): boolean => {
  for (let index = 0; index < FIELD_LIMBS; index++) y[index] = bytes[2 * index]! | (bytes[2 * index + 1]! << 8)
  y[FIELD_LIMBS - 1] = y[FIELD_LIMBS - 1]! & 0x7fff
  multiply(y2, y, y)
  u.set(y2)
  u[0] = u[0]! - 1
  multiply(v, D_FIELD, y2)
  v[0] = v[0]! + 1
  canonical(u)
  if (u.every((limb) => limb === 0)) return (bytes[31]! & 0x80) === 0
  multiply(uv, u, v)
  canonical(uv)
  for (let index = 0; index < LIMBS; index++) a[index] = uv[2 * index]! + uv[2 * index + 1]! * RADIX
  n.set(P_LIMBS)
  return jacobi() === 1
}

const MARKER = Buffer.from("ProgramDerivedAddress")

/** `find_program_address(seeds, program)`: writes the 32 address bytes into `out` and returns the bump. */
export const findPdaInto = (seeds: ReadonlyArray<Uint8Array>, program: Uint8Array, out: Uint8Array): number => {
  const prefix = createHash("sha256")
  for (const seed of seeds) prefix.update(seed)
  const bump = new Uint8Array(1)
  for (let candidate = 255; candidate >= 0; candidate--) {
    bump[0] = candidate
    const digest = prefix.copy().update(bump).update(program).update(MARKER).digest()
    if (!isOnCurve(digest)) {
      out.set(digest)
      return candidate
    }
  }
  throw new Error("no viable bump seed")
}
