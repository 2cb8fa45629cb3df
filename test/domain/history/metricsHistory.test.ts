import { describe, expect, it } from "vitest"
import { ClosePriceBook } from "../../../src/domain/history/closePrices.ts"
import { MetricsBook } from "../../../src/domain/history/metricsHistory.ts"
import type { DayRows, VaultDailyRecord } from "../../../src/domain/history/referrerDailyRow.ts"
import { yieldMetrics } from "../../../src/domain/history/yieldMetrics.ts"

const midnight = (date: string) => Date.parse(`${date}T00:00:00Z`) / 1000
const price = (usd: number, publishTime: number) => ({ usd, publishTime, slot: publishTime })

describe("ClosePriceBook", () => {
  it("gives a day's close the last price published before its midnight, if recent enough", () => {
    const book = new ClosePriceBook(600)
    book.observe("USDC", price(0.99, midnight("2026-02-02") - 3_600))
    book.observe("USDC", price(0.998, midnight("2026-02-02") - 20))
    // an older sample seen later does not replace a newer one
    book.observe("USDC", price(0.5, midnight("2026-02-02") - 300))
    // after midnight: the next day's
    book.observe("USDC", price(1.01, midnight("2026-02-02") + 5))
    expect(book.atClose("USDC", "2026-02-01")).toEqual(price(0.998, midnight("2026-02-02") - 20))
    expect(book.atClose("USDC", "2026-02-02")).toBeNull()
    expect(book.atClose("SOL", "2026-02-01")).toBeNull()
  })

  it("has no price for a close when the last one seen was published too long before midnight", () => {
    const book = new ClosePriceBook(600)
    book.observe("USDC", price(1, midnight("2026-02-02") - 601))
    expect(book.atClose("USDC", "2026-02-01")).toBeNull()
    book.observe("USDC", price(1, midnight("2026-02-02") - 600))
    expect(book.atClose("USDC", "2026-02-01")?.usd).toBe(1)
  })

  it("forgets days long past", () => {
    const book = new ClosePriceBook(86_400)
    book.observe("USDC", price(1, midnight("2026-02-02") - 10))
    book.observe("USDC", price(1, midnight("2026-02-10") - 10))
    expect(book.atClose("USDC", "2026-02-01")).toBeNull()
    expect(book.atClose("USDC", "2026-02-09")?.usd).toBe(1)
  })
})

const vaultRow = (vault: string, date: string, closingSharePrice: bigint | null): VaultDailyRecord => ({
  vault, date, closingSharePrice, closingTotalShares: closingSharePrice === null ? null : 3_000_000n,
  depositsRequested: 0n, depositFees: 0n, withdrawalsPaid: 0n, withdrawalFees: 0n, feesCharged: 0n, events: 1
})
const day = (date: string, ...vaults: Array<VaultDailyRecord>): DayRows => ({ date, vaults, referrers: [] })

describe("MetricsBook", () => {
  it("computes each day's row from the closes up to that day, at the given fees, decimals and close price", () => {
    const book = new MetricsBook()
    const fees = { managementFeeBps: 200, performanceFeeBps: 1_000 }
    const context = {
      vaultOf: (vault: string) => (vault === "A" ? { fees, decimals: 6, mint: "USDC" } : null),
      usdAtClose: (mint: string) => (mint === "USDC" ? 0.999 : null),
      derivation: "atClose" as const,
      computedAt: 42
    }
    const prices = [1_000_000n, 1_001_000n, 999_000n, 1_004_000n]
    const rows = prices.map((value, i) => {
      const date = `2026-02-0${i + 1}`
      const rowsOfDay = day(date, vaultRow("A", date, value), vaultRow("B", date, i === 0 ? null : value))
      book.addDay(rowsOfDay)
      return book.rowsOf(rowsOfDay, context)
    })
    const last = rows[3]!
    const closes = prices.map((sharePrice, i) => ({ date: `2026-02-0${i + 1}`, sharePrice }))
    expect(last[0]).toEqual({
      vault: "A", date: "2026-02-04", ...yieldMetrics(closes, fees), fees,
      closingTvl: 3_012_000n, assetUsd: 0.999, historyDays: 4, derivation: "atClose", computedAt: 42
    })
    // An unknown vault: no fees to deduct (after-fees null), no decimals for its TVL, no price.
    expect(last[1]).toMatchObject({ vault: "B", fees: null, apy7dAfterFees: null, apyInceptionAfterFees: null, closingTvl: null, assetUsd: null, historyDays: 3 })
    expect(last[1]!.apyInception).toEqual(yieldMetrics(closes.slice(1), fees).apyInception)
    // A day's row does not see later closes.
    expect(rows[1]![0]!.apyInception).toEqual(yieldMetrics(closes.slice(0, 2), fees).apyInception)
    expect(rows[0]![1]).toMatchObject({ historyDays: 0, apyInception: null, closingTvl: null })
  })
})
