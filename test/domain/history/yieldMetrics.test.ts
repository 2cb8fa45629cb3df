import { describe, expect, it } from "vitest"
import { type DailyClose, yieldMetrics } from "../../../src/domain/history/yieldMetrics.ts"

const day = (index: number) => new Date(Date.UTC(2026, 0, 1) + index * 86_400_000).toISOString().slice(0, 10)
/** Daily closes growing by `daily` (fraction) from 1.000000 (6 decimals). */
const growing = (days: number, daily: number): Array<DailyClose> =>
  Array.from({ length: days }, (_, i) => ({ date: day(i), sharePrice: BigInt(Math.round(1_000_000 * (1 + daily) ** i)) }))

const noFees = { managementFeeBps: 0, performanceFeeBps: 0 }

describe("yield metrics from daily share prices", () => {
  it("APR over the window, compounded daily into an APY (facts §10.7)", () => {
    const closes = [{ date: "2026-01-01", sharePrice: 1_000_000n }, ...growing(40, 0).slice(1)]
    closes[closes.length - 1] = { date: closes[closes.length - 1]!.date, sharePrice: 1_000_000n }
    closes[closes.length - 8] = { ...closes[closes.length - 8]!, sharePrice: 1_000_000n }
    const flat = yieldMetrics(closes, noFees)
    expect(flat.apy7d).toBe(0)
    expect(flat.apy30d).toBe(0)
    expect(flat.apyInception).toBe(0)

    const closes7 = [{ date: "2026-01-01", sharePrice: 1_000_000n }, { date: "2026-01-08", sharePrice: 1_010_000n }]
    const apr = 0.01 * (365 / 7)
    expect(yieldMetrics(closes7, noFees).apy7d).toBeCloseTo((1 + apr / 365) ** 365 - 1, 12)
    expect(yieldMetrics(closes7, noFees).apy30d).toBeNull() // not 30 days of history
    expect(yieldMetrics(closes7, noFees).apyInception).toBeCloseTo((1 + apr / 365) ** 365 - 1, 12)
  })

  it("after fees: performance fee on a positive return, then the management fee", () => {
    const closes = [{ date: "2026-01-01", sharePrice: 1_000_000n }, { date: "2026-01-08", sharePrice: 1_010_000n }]
    const apr = 0.01 * (365 / 7)
    const net = apr * (1 - 0.2) - 0.01
    const metrics = yieldMetrics(closes, { managementFeeBps: 100, performanceFeeBps: 2_000 })
    expect(metrics.apy7dAfterFees).toBeCloseTo((1 + net / 365) ** 365 - 1, 12)
    expect(metrics.apy7dAfterFees!).toBeLessThan(metrics.apy7d!)
  })

  it("null without enough history; drawdown and Sharpe", () => {
    expect(yieldMetrics([], noFees)).toEqual({
      apy7d: null, apy7dAfterFees: null, apy30d: null, apy30dAfterFees: null,
      apyInception: null, apyInceptionAfterFees: null, maxDrawdown: null, sharpeRatio30d: null
    })
    const closes = [
      { date: "2026-01-01", sharePrice: 1_000_000n },
      { date: "2026-01-02", sharePrice: 1_200_000n },
      { date: "2026-01-03", sharePrice: 900_000n },
      { date: "2026-01-04", sharePrice: 1_300_000n }
    ]
    expect(yieldMetrics(closes, noFees).maxDrawdown).toBeCloseTo(0.25, 12)
    expect(yieldMetrics(closes, noFees).sharpeRatio30d).toBeNull() // fewer than 30 daily returns
    const wobbly = growing(31, 0.001).map((close, i) => ({ ...close, sharePrice: close.sharePrice + BigInt(i % 2) }))
    const sharpe = yieldMetrics(wobbly, noFees).sharpeRatio30d
    expect(sharpe).not.toBeNull()
    expect(sharpe!).toBeGreaterThan(0)
  })
})
