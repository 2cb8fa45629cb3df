import { Effect, Layer } from "effect"
import { type SharePriceEvent, VaultSeries } from "../../../services/VaultSeries.ts"
import type { DailyRow } from "../../domain/history/dailyRow.ts"
import { MetricsBook, type MetricsHistoryRecord } from "../../domain/history/metricsHistory.ts"
import { utcDayStart } from "../../domain/history/utcDay.ts"

/**
 * `VaultSeries` over fixed daily rows per vault (one per day, oldest first): one fee event at noon
 * per day whose closing price differs from the day before, the metrics each day's close gives
 * (6 decimals, 1% management fee, marked backfill), and no recorded prices.
 */
export const VaultSeriesStandIn = (rowsByVault: ReadonlyMap<string, ReadonlyArray<DailyRow>> = new Map()) => {
  const events = new Map<string, Array<SharePriceEvent>>()
  const metrics = new Map<string, Array<MetricsHistoryRecord>>()
  for (const [vault, rows] of rowsByVault) {
    const book = new MetricsBook()
    let previous: bigint | null = null
    const vaultEvents: Array<SharePriceEvent> = []
    const vaultMetrics: Array<MetricsHistoryRecord> = []
    rows.forEach((row, index) => {
      if (row.closingSharePrice !== null && row.closingSharePrice !== previous) {
        vaultEvents.push({
          slot: 1_000 + index, signature: `standIn${vault.slice(0, 8)}${index}`, eventIndex: 0,
          blockTime: utcDayStart(row.date) + 43_200, name: "ChargedFeesToUser", sharePrice: row.closingSharePrice
        })
        previous = row.closingSharePrice
      }
      const day = { date: row.date, vaults: [{ vault, ...row }], referrers: [] }
      book.addDay(day)
      vaultMetrics.push(...book.rowsOf(day, {
        vaultOf: () => ({ fees: { managementFeeBps: 100, performanceFeeBps: 0 }, decimals: 6, mint: "standIn" }),
        usdAtClose: () => null,
        derivation: "backfill",
        computedAt: utcDayStart(row.date) + 86_400
      }))
    })
    events.set(vault, vaultEvents)
    metrics.set(vault, vaultMetrics)
  }
  return Layer.succeed(
    VaultSeries,
    VaultSeries.of({
      sharePriceEvents: ({ vault, from, below, after, limit }) =>
        Effect.sync(() => {
          const matching = (events.get(vault) ?? []).filter((event) =>
            (from === null || event.blockTime >= from) && (below === null || event.blockTime < below) &&
            (after === null || event.slot > after.slot))
          return { events: matching.slice(0, limit), more: matching.length > limit }
        }),
      metricsRows: ({ vault, from, to, after, limit }) =>
        Effect.succeed(
          (metrics.get(vault) ?? [])
            .filter((row) => row.date <= to && (from === null || row.date >= from) && (after === null || row.date > after))
            .slice(0, limit)
        ),
      closePrices: () => Effect.succeed(new Map())
    })
  )
}
