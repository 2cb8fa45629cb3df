import { SqlClient } from "@effect/sql"
import { Effect, Layer } from "effect"
import { type EventKey, type SharePriceEvent, VaultSeries } from "../../services/VaultSeries.ts"
import type { MetricsHistoryRecord } from "../../src/domain/history/metricsHistory.ts"
import { addUtcDays } from "../../src/domain/history/utcDay.ts"
import type { UsdPrice } from "../../src/domain/usdPrice.ts"

/** Price-bearing events read per query while looking for the ones that moved the price. */
const SCAN_BATCH = 500

interface EventRow {
  readonly slot: string
  readonly signature: string
  readonly event_index: number
  readonly block_time: string
  readonly name: string
  readonly share_price: string
}

interface MetricsRow {
  readonly date: string
  readonly apy_7d: number | null
  readonly apy_7d_after_fees: number | null
  readonly apy_30d: number | null
  readonly apy_30d_after_fees: number | null
  readonly apy_inception: number | null
  readonly apy_inception_after_fees: number | null
  readonly max_drawdown: number | null
  readonly sharpe_ratio_30d: number | null
  readonly management_fee_bps: number | null
  readonly performance_fee_bps: number | null
  readonly closing_tvl: string | null
  readonly asset_usd: number | null
  readonly history_days: number
  readonly derivation: "atClose" | "backfill"
  readonly computed_at: string
}

const toEvent = (row: EventRow): SharePriceEvent => ({
  slot: Number(row.slot),
  signature: row.signature,
  eventIndex: row.event_index,
  blockTime: Number(row.block_time),
  name: row.name,
  sharePrice: BigInt(row.share_price)
})

const number = (value: number | string | null): number | null => (value === null ? null : Number(value))

const toMetrics = (vault: string) => (row: MetricsRow): MetricsHistoryRecord => ({
  vault,
  date: row.date,
  apy7d: number(row.apy_7d),
  apy7dAfterFees: number(row.apy_7d_after_fees),
  apy30d: number(row.apy_30d),
  apy30dAfterFees: number(row.apy_30d_after_fees),
  apyInception: number(row.apy_inception),
  apyInceptionAfterFees: number(row.apy_inception_after_fees),
  maxDrawdown: number(row.max_drawdown),
  sharpeRatio30d: number(row.sharpe_ratio_30d),
  fees: row.management_fee_bps === null || row.performance_fee_bps === null
    ? null
    : { managementFeeBps: row.management_fee_bps, performanceFeeBps: row.performance_fee_bps },
  closingTvl: row.closing_tvl === null ? null : BigInt(row.closing_tvl),
  assetUsd: number(row.asset_usd),
  historyDays: row.history_days,
  derivation: row.derivation,
  computedAt: Number(row.computed_at)
})

/**
 * `VaultSeries` from PostgreSQL: the event log's processing and fee events (`program_event`, by the
 * share-price index of 0014), the metrics rows the rollup recorded (`vault_metrics_daily`) and the
 * close prices (`daily_price`).
 */
export const VaultSeriesLive = Layer.effect(
  VaultSeries,
  Effect.gen(function*() {
    const sql = yield* SqlClient.SqlClient
    const PRICED = sql.literal("name IN ('Allocated', 'Redeemed', 'ChargedFeesToUser')")

    const priceBefore = (vault: string, key: EventKey | null, before: number | null) => {
      const position = key === null
        ? before === null ? sql.literal("FALSE") : sql`block_time < ${before}`
        : sql`(slot, signature, event_index) <= (${key.slot}, ${key.signature}, ${key.eventIndex})`
      return Effect.map(
        sql<{ share_price: string }>`
          SELECT data->>'sharePrice' AS share_price FROM program_event
          WHERE vault = ${vault} AND ${PRICED} AND data->>'sharePrice' IS NOT NULL AND ${position}
          ORDER BY slot DESC, signature DESC, event_index DESC
          LIMIT 1`,
        (rows) => (rows[0] === undefined ? null : BigInt(rows[0].share_price))
      )
    }

    const scan = (vault: string, after: EventKey | null, from: number | null, below: number | null) => {
      const position = after === null ? sql.literal("TRUE") : sql`(slot, signature, event_index) > (${after.slot}, ${after.signature}, ${after.eventIndex})`
      const lower = from === null ? sql.literal("TRUE") : sql`block_time >= ${from}`
      const upper = below === null ? sql.literal("TRUE") : sql`block_time < ${below}`
      return Effect.map(
        sql<EventRow>`
          SELECT slot::text, signature, event_index, block_time::text, name, data->>'sharePrice' AS share_price
          FROM program_event
          WHERE vault = ${vault} AND ${PRICED} AND data->>'sharePrice' IS NOT NULL AND block_time IS NOT NULL
            AND ${position} AND ${lower} AND ${upper}
          ORDER BY program_event.slot, signature, event_index -- the column, not the selected slot::text
          LIMIT ${SCAN_BATCH}`,
        (rows) => rows.map(toEvent)
      )
    }

    return VaultSeries.of({
      sharePriceEvents: ({ vault, from, below, after, limit }) =>
        Effect.gen(function*() {
          let previous = yield* priceBefore(vault, after, from)
          const events: Array<SharePriceEvent> = []
          let position = after
          for (;;) {
            const batch = yield* scan(vault, position, from, below)
            for (const event of batch) {
              if (event.sharePrice !== previous) {
                if (events.length === limit) return { events, more: true }
                events.push(event)
              }
              previous = event.sharePrice
            }
            const last = batch[batch.length - 1]
            if (last === undefined || batch.length < SCAN_BATCH) return { events, more: false }
            position = last
          }
        }).pipe(Effect.withSpan("VaultSeries.sharePriceEvents")),

      metricsRows: ({ vault, from, to, after, limit }) => {
        const lower = [from, after === null ? null : addUtcDays(after, 1)].filter((d): d is string => d !== null).sort().pop() ?? "0001-01-01"
        return sql<MetricsRow>`
          SELECT to_char(day, 'YYYY-MM-DD') AS date, apy_7d, apy_7d_after_fees, apy_30d, apy_30d_after_fees, apy_inception,
            apy_inception_after_fees, max_drawdown, sharpe_ratio_30d, management_fee_bps, performance_fee_bps,
            closing_tvl::text, asset_usd, history_days, derivation, computed_at::text
          FROM vault_metrics_daily
          WHERE vault = ${vault} AND day >= ${lower}::date AND day <= ${to}::date
          ORDER BY day
          LIMIT ${limit}`.pipe(Effect.map((rows) => rows.map(toMetrics(vault))), Effect.withSpan("VaultSeries.metricsRows"))
      },

      closePrices: (mint, from, to) =>
        sql<{ date: string; usd: number; publish_time: string; slot: string }>`
          SELECT to_char(day, 'YYYY-MM-DD') AS date, usd, publish_time::text, slot::text
          FROM daily_price WHERE mint = ${mint} AND day >= ${from}::date AND day <= ${to}::date`.pipe(
          Effect.map((rows) =>
            new Map(rows.map((row): [string, UsdPrice] => [row.date, { usd: Number(row.usd), publishTime: Number(row.publish_time), slot: Number(row.slot) }]))
          ),
          Effect.withSpan("VaultSeries.closePrices")
        )
    })
  })
)
