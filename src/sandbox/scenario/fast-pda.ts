import { createHash } from "node:crypto"

/**
 * Program-derived addresses for bulk genesis (a million positions): the same derivation as
 * `src/ntbundle/pdas` (first bump from 255 whose hash is not an ed25519 point), with the curve
 * test done as a binary Jacobi symbol on 32-bit limbs instead of BigInt division, about twice as
 * fast. Correctness is checked against `src/ntbundle/ed25519` in the tests.
 *
 * A compressed point with y (low 255 bits) exists iff u·v is a square mod p, where
 * u = y² − 1 and v = d·y² + 1 (x = 0 with the sign bit set is invalid).
 */
const P = 2n ** 255n - 19n
const D = 37095705934669439343138083508754565189542113879843219016388785533085940283555n
const LOW_255 = (1n << 255n) - 1n
const LIMBS = 8

const a = new Uint32Array(LIMBS)
const n = new Uint32Array(LIMBS)
const P_LIMBS = new Uint32Array(LIMBS)
const loadLimbs = (target: Uint32Array, value: bigint): void => {
  for (let index = 0; index < LIMBS; index++) {
    target[index] = Number(value & 0xffffffffn)
    value >>= 32n
  }
}
loadLimbs(P_LIMBS, P)

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

const littleEndian = (bytes: Uint8Array): bigint => {
  const view = new DataView(bytes.buffer, bytes.byteOffset, 32)
  let value = 0n
  for (let index = 3; index >= 0; index--) value = (value << 64n) | view.getBigUint64(index * 8, true)
  return value
}

export const isOnCurve = (bytes: Uint8Array): boolean => {
  const y = (littleEndian(bytes) & LOW_255) % P
  const y2 = (y * y) % P
  const u = (y2 + P - 1n) % P
  const v = (D * y2 + 1n) % P
  if (u === 0n) return (bytes[31]! & 0x80) === 0
  loadLimbs(a, (u * v) % P)
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
