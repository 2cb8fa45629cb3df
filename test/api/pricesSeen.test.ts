import { describe, expect, it } from "@effect/vitest"
import { PricesSeen } from "../../src/api/pricesSeen.ts"
import type { UsdPrice } from "../../src/domain/usdPrice.ts"

const prices: Record<string, UsdPrice> = {
  sol: { usd: 150, publishTime: 1_000, slot: 40 },
  btc: { usd: 90_000, publishTime: 990, slot: 38 },
  usdc: { usd: 0.9999, publishTime: 1_005, slot: 41 }
}

describe("PricesSeen", () => {
  it("answers the prices unchanged and reports the oldest one it answered", () => {
    const seen = new PricesSeen((mint) => prices[mint] ?? null)
    expect(seen.priceAsOf).toBeNull()
    expect(seen.priceOf("sol")).toBe(prices.sol)
    expect(seen.priceAsOf).toEqual({ slot: 40, blockTime: 1_000 })
    expect(seen.priceOf("usdc")?.usd).toBe(0.9999)
    expect(seen.priceAsOf).toEqual({ slot: 40, blockTime: 1_000 })
    seen.priceOf("btc")
    expect(seen.priceAsOf).toEqual({ slot: 38, blockTime: 990 })
  })

  it("stays null when only unpriced mints were asked", () => {
    const seen = new PricesSeen((mint) => prices[mint] ?? null)
    expect(seen.priceOf("bonk")).toBeNull()
    expect(seen.priceAsOf).toBeNull()
  })
})
