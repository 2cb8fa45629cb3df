import type { SqlClient } from "@effect/sql/SqlClient"
import { Array as Arr, Effect } from "effect"
import type { MetricsHistoryRecord } from "../../src/domain/history/metricsHistory.ts"
import type { UsdPrice } from "../../src/domain/usdPrice.ts"

/** A deposit asset's price at a day's close, as the rollup records it. */
export interface ClosePriceRecord {
  readonly mint: string
  readonly date: string
  readonly price: UsdPrice
}

/** What the rollup records besides the daily rows, in the same transaction. */
export interface CloseRecords {
  readonly metrics: ReadonlyArray<MetricsHistoryRecord>
  readonly prices: ReadonlyArray<ClosePriceRecord>
}

export const NO_CLOSE_RECORDS: CloseRecords = { metrics: [], prices: [] }

/** Rows per multi-row insert (18 parameters per row). */
const INSERT_CHUNK_ROWS = 1_000

const metricsRow = (row: MetricsHistoryRecord) => ({
  vault: row.vault,
  day: row.date,
  apy_7d: row.apy7d,
  apy_7d_after_fees: row.apy7dAfterFees,
  apy_30d: row.apy30d,
  apy_30d_after_fees: row.apy30dAfterFees,
  apy_inception: row.apyInception,
  apy_inception_after_fees: row.apyInceptionAfterFees,
  max_drawdown: row.maxDrawdown,
  sharpe_ratio_30d: row.sharpeRatio30d,
  management_fee_bps: row.fees?.managementFeeBps ?? null,
  performance_fee_bps: row.fees?.performanceFeeBps ?? null,
  closing_tvl: row.closingTvl?.toString() ?? null,
  asset_usd: row.assetUsd,
  history_days: row.historyDays,
  derivation: row.derivation,
  computed_at: row.computedAt
})

/** Stores metrics rows and close prices; a stored one is never replaced (it was computed once). */
export const insertCloseRecords = (sql: SqlClient, records: CloseRecords) =>
  Effect.gen(function*() {
    for (const chunk of Arr.chunksOf(records.metrics.map(metricsRow), INSERT_CHUNK_ROWS)) {
      yield* sql`INSERT INTO vault_metrics_daily ${sql.insert(chunk)} ON CONFLICT (vault, day) DO NOTHING`
    }
    const prices = records.prices.map(({ mint, date, price }) => ({
      mint, day: date, usd: price.usd, publish_time: price.publishTime, slot: price.slot
    }))
    for (const chunk of Arr.chunksOf(prices, INSERT_CHUNK_ROWS)) {
      yield* sql`INSERT INTO daily_price ${sql.insert(chunk)} ON CONFLICT (mint, day) DO NOTHING`
    }
  })

/** The newest day with a metrics row (null: none), i.e. through which metrics were recorded. */
export const metricsRecordedThrough = (sql: SqlClient) =>
  Effect.map(
    sql<{ through: string | null }>`SELECT to_char(max(day), 'YYYY-MM-DD') AS through FROM vault_metrics_daily`,
    (rows) => rows[0]?.through ?? null
  )
