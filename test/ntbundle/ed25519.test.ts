import { describe, expect, it } from "@effect/vitest"
import { randomBytes } from "node:crypto"
import { isOnEd25519Curve } from "../../src/ntbundle/ed25519.ts"

const P = 2n ** 255n - 19n
const D = (-121665n * modPow(121666n, P - 2n)) % P + P

function modPow(base: bigint, exponent: bigint): bigint {
  let result = 1n
  let b = ((base % P) + P) % P
  let e = exponent
  while (e > 0n) {
    if ((e & 1n) === 1n) result = (result * b) % P
    b = (b * b) % P
    e >>= 1n
  }
  return result
}

/** RFC 8032 decoding without the y < p check (as curve25519-dalek), on BigInt: the reference. */
const referenceOnCurve = (bytes: Uint8Array): boolean => {
  let y = 0n
  for (let index = 31; index >= 0; index--) y = (y << 8n) | BigInt(bytes[index]!)
  y &= (1n << 255n) - 1n
  const y2 = (y * y) % P
  const u = (y2 - 1n + P) % P
  const v = (D * y2 + 1n) % P
  if (u === 0n) return (bytes[31]! & 0x80) === 0
  return modPow(u * v, (P - 1n) / 2n) === 1n
}

const withY = (y: bigint, signBit: boolean): Uint8Array => {
  const bytes = new Uint8Array(32)
  let rest = y
  for (let index = 0; index < 32; index++) {
    bytes[index] = Number(rest & 0xffn)
    rest >>= 8n
  }
  if (signBit) bytes[31] = bytes[31]! | 0x80
  return bytes
}

describe("isOnEd25519Curve", () => {
  it("agrees with a BigInt reference on random strings and on edge values of y", () => {
    const edges = [0n, 1n, 2n, P - 1n, P, P + 1n, 2n ** 255n - 1n, 2n ** 16n - 1n, 2n ** 240n]
    for (const y of edges) for (const sign of [false, true]) expect(isOnEd25519Curve(withY(y, sign))).toBe(referenceOnCurve(withY(y, sign)))
    let onCurve = 0
    for (let round = 0; round < 3_000; round++) {
      const bytes = new Uint8Array(randomBytes(32))
      const expected = referenceOnCurve(bytes)
      if (expected) onCurve++
      expect(isOnEd25519Curve(bytes)).toBe(expected)
    }
    // about half of random strings decode to a point: both answers are exercised
    expect(onCurve).toBeGreaterThan(1_200)
    expect(onCurve).toBeLessThan(1_800)
  })
})
