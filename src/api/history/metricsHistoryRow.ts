import { Schema } from "effect"
import type { MetricsHistoryRecord } from "../../domain/history/metricsHistory.ts"
import { Amount, amount } from "../amounts.ts"
import { yieldFigureFields } from "./HistoryApi.ts"

/** One completed day's `/metrics` figures, as recorded when the day closed. */
export const MetricsHistoryRow = Schema.Struct({
  date: Schema.String,
  ...yieldFigureFields,
  /** The fee schedule the after-fees figures deducted; null when the vault was not known then (after-fees figures null). */
  feeSchedule: Schema.NullOr(Schema.Struct({ managementFeeBps: Schema.Int, performanceFeeBps: Schema.Int })),
  /** Closing TVL (closing shares × closing share price); usd at the price recorded at that day's close, else null. */
  tvl: Schema.NullOr(Amount),
  /** Completed days with a closing share price behind the figures. */
  historyDays: Schema.Int,
  /**
   * atClose: computed when the gateway closed the day while following the chain. backfill: computed
   * once, later, from that day's stored data (days that ended before the gateway first served live,
   * e.g. the backfilled history, or closed before metrics were recorded), with the fee schedule of
   * that later time and no USD price.
   */
  derivation: Schema.Literal("atClose", "backfill"),
  /** Unix seconds: the chain time the row was computed at. */
  computedAt: Schema.Int
}).annotations({ identifier: "MetricsHistoryRow" })
export type MetricsHistoryRow = typeof MetricsHistoryRow.Type

export const toMetricsHistoryRow = (row: MetricsHistoryRecord, decimals: number): MetricsHistoryRow => ({
  date: row.date,
  apy7d: row.apy7d,
  apy7dAfterFees: row.apy7dAfterFees,
  apy30d: row.apy30d,
  apy30dAfterFees: row.apy30dAfterFees,
  apyInception: row.apyInception,
  apyInceptionAfterFees: row.apyInceptionAfterFees,
  maxDrawdown: row.maxDrawdown,
  sharpeRatio30d: row.sharpeRatio30d,
  feeSchedule: row.fees,
  tvl: row.closingTvl === null ? null : amount(row.closingTvl, decimals, row.assetUsd),
  historyDays: row.historyDays,
  derivation: row.derivation,
  computedAt: row.computedAt
})
