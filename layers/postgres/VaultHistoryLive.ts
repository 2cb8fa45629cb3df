import { SqlClient } from "@effect/sql"
import { Effect, Layer } from "effect"
import { VaultHistory } from "../../services/VaultHistory.ts"
import type { DailyRow } from "../../src/domain/history/dailyRow.ts"

const DAY_MS = 86_400_000
const addDays = (date: string, days: number): string =>
  new Date(Date.parse(`${date}T00:00:00Z`) + days * DAY_MS).toISOString().slice(0, 10)

interface Row {
  readonly date: string
  readonly closing_price: string | null
  readonly closing_shares: string | null
  readonly deposits: string
  readonly deposit_fees: string
  readonly withdrawals: string
  readonly withdrawal_fees: string
  readonly fees_charged: string
  readonly events: string | number
}

const toDailyRow = (row: Row): DailyRow => ({
  date: row.date,
  closingSharePrice: row.closing_price === null ? null : BigInt(row.closing_price),
  closingTotalShares: row.closing_shares === null ? null : BigInt(row.closing_shares),
  depositsRequested: BigInt(row.deposits),
  depositFees: BigInt(row.deposit_fees),
  withdrawalsPaid: BigInt(row.withdrawals),
  withdrawalFees: BigInt(row.withdrawal_fees),
  feesCharged: BigInt(row.fees_charged),
  events: Number(row.events)
})

/**
 * Daily rows computed from `program_event` on each query: every day from the vault's first event to
 * `to`, closing values carried forward over days without a price-bearing event. Reads every
 * event of the vault up to `to`: a stored daily table is the next step when histories grow.
 */
export const VaultHistoryLive = Layer.effect(
  VaultHistory,
  Effect.gen(function*() {
    const sql = yield* SqlClient.SqlClient
    return VaultHistory.of({
      depositTotals: sql<{ vault: string; total: string }>`
        SELECT vault, SUM((data->>'grossAmount')::numeric)::text AS total
        FROM program_event WHERE name = 'DepositRequested' AND vault IS NOT NULL
        GROUP BY vault`.pipe(Effect.map((rows) => new Map(rows.map((row) => [row.vault, BigInt(row.total)])))),
      dailyRows: ({ vault, from, to, after, limit }) => {
        const lower = [from, after === null ? null : addDays(after, 1)].filter((d): d is string => d !== null).sort().pop() ?? "0001-01-01"
        const endUnix = Date.parse(`${addDays(to, 1)}T00:00:00Z`) / 1000
        return sql<Row>`
          WITH daily AS (
            SELECT (to_timestamp(block_time) AT TIME ZONE 'UTC')::date AS day,
              (array_agg(data->>'sharePrice' ORDER BY slot DESC, event_index DESC)
                FILTER (WHERE name IN ('Allocated', 'Redeemed', 'ChargedFeesToUser')))[1] AS price,
              (array_agg(COALESCE(data->>'totalShares', data->>'totalSharesAfter') ORDER BY slot DESC, event_index DESC)
                FILTER (WHERE name IN ('Allocated', 'Redeemed')))[1] AS shares,
              COALESCE(SUM((data->>'grossAmount')::numeric) FILTER (WHERE name = 'DepositRequested'), 0) AS deposits,
              COALESCE(SUM((data->>'feeAmount')::numeric) FILTER (WHERE name = 'DepositRequested'), 0) AS deposit_fees,
              COALESCE(SUM((data->>'grossAmount')::numeric) FILTER (WHERE name = 'Redeemed'), 0) AS withdrawals,
              COALESCE(SUM((data->>'feeAmount')::numeric) FILTER (WHERE name = 'Redeemed'), 0) AS withdrawal_fees,
              COALESCE(SUM((data->>'totalFeeValue')::numeric) FILTER (WHERE name = 'ChargedFeesToUser'), 0) AS fees_charged,
              count(*) AS events
            FROM program_event
            WHERE vault = ${vault} AND block_time IS NOT NULL AND block_time < ${endUnix}
            GROUP BY 1
          ), days AS (
            SELECT generate_series((SELECT min(day) FROM daily), ${to}::date, interval '1 day')::date AS day
          ), grouped AS (
            SELECT days.day, price, shares,
              COALESCE(deposits, 0) AS deposits, COALESCE(deposit_fees, 0) AS deposit_fees,
              COALESCE(withdrawals, 0) AS withdrawals, COALESCE(withdrawal_fees, 0) AS withdrawal_fees,
              COALESCE(fees_charged, 0) AS fees_charged, COALESCE(events, 0) AS events,
              count(price) OVER (ORDER BY days.day) AS price_group, count(shares) OVER (ORDER BY days.day) AS shares_group
            FROM days LEFT JOIN daily USING (day)
          ), closes AS (
            SELECT day,
              first_value(price) OVER (PARTITION BY price_group ORDER BY day) AS closing_price,
              first_value(shares) OVER (PARTITION BY shares_group ORDER BY day) AS closing_shares,
              deposits, deposit_fees, withdrawals, withdrawal_fees, fees_charged, events
            FROM grouped
          )
          SELECT to_char(day, 'YYYY-MM-DD') AS date, closing_price, closing_shares,
            deposits::text, deposit_fees::text, withdrawals::text, withdrawal_fees::text, fees_charged::text, events
          FROM closes
          WHERE day >= ${lower}::date
          ORDER BY day
          LIMIT ${limit}`.pipe(Effect.map((rows) => rows.map(toDailyRow)))
      }
    })
  })
)
