import { describe, expect, it } from "@effect/vitest"
import { FastCheck } from "effect"
import { jacobiOfField } from "../../src/ntbundle/jacobi.ts"

const P = 2n ** 255n - 19n

/** Reference: Euler's criterion on BigInt, written independently of the module under test. */
const legendre = (a: bigint): number => {
  let result = 1n
  let base = ((a % P) + P) % P
  for (let exponent = (P - 1n) / 2n; exponent > 0n; exponent >>= 1n) {
    if ((exponent & 1n) === 1n) result = (result * base) % P
    base = (base * base) % P
  }
  return result === 0n ? 0 : result === 1n ? 1 : -1
}

const limbs16 = (value: bigint): Float64Array =>
  Float64Array.from({ length: 16 }, (_, index) => Number((value >> BigInt(16 * index)) & 0xffffn))

const fieldElement = FastCheck.bigUintN(255).map((value) => value % P)

describe("Jacobi symbol mod 2^255 − 19", () => {
  it("equals Euler's criterion on edge values", () => {
    const edges = [0n, 1n, 2n, 3n, 4n, 19n, 38n, 2n ** 24n, 2n ** 24n - 1n, 2n ** 254n, (P - 1n) / 2n, P - 2n, P - 1n]
    for (const value of edges) expect([value, jacobiOfField(limbs16(value))]).toEqual([value, legendre(value)])
  })

  it("equals Euler's criterion on random field elements, squares and non-squares alike", () => {
    const seen = new Set<number>()
    FastCheck.assert(
      FastCheck.property(fieldElement, (value) => {
        const symbol = jacobiOfField(limbs16(value))
        seen.add(symbol)
        expect(symbol).toBe(legendre(value))
        // a square is always a square
        if (value !== 0n) expect(jacobiOfField(limbs16((value * value) % P))).toBe(1)
      }),
      { numRuns: 3000 }
    )
    expect([seen.has(1), seen.has(-1)]).toEqual([true, true])
  })

  it("the BigInt fallback (reached only past the round bound) gives the same answers", () => {
    FastCheck.assert(
      FastCheck.property(fieldElement, (value) => {
        expect(jacobiOfField(limbs16(value), 0)).toBe(legendre(value))
      }),
      { numRuns: 200 }
    )
  })
})
