import { describe, expect, it } from "vitest"
import { amount, tokenQuantity } from "../../src/api/amounts.ts"
import { amountJson, quantityJson } from "../../src/ws/amountJson.ts"

describe("amountJson / quantityJson", () => {
  it("equal JSON.stringify of the amount objects, for every kind of USD value and sign", () => {
    const usds = [null, 0, -0, 1.25, 0.9998, 1e21, 1e-7, -3.5, Number.NaN, Number.POSITIVE_INFINITY]
    for (const raw of [0n, 1n, -1n, 123_450_000n, -500_000n, 10n ** 30n]) {
      for (const usd of usds) {
        const value = amount(raw, 6, usd)
        expect(amountJson(value)).toBe(JSON.stringify(value))
      }
      expect(quantityJson(tokenQuantity(raw, 9))).toBe(JSON.stringify(tokenQuantity(raw, 9)))
    }
    expect(amountJson(null)).toBe("null")
    expect(quantityJson(null)).toBe("null")
  })
})
