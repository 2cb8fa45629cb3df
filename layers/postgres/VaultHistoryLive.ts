import { SqlClient } from "@effect/sql"
import { Effect, Layer } from "effect"
import { VaultHistory } from "../../services/VaultHistory.ts"
import type { DailyRow } from "../../src/domain/history/dailyRow.ts"
import { addUtcDays } from "../../src/domain/history/utcDay.ts"

interface Row {
  readonly date: string
  readonly closing_price: string | null
  readonly closing_shares: string | null
  readonly deposits: string
  readonly deposit_fees: string
  readonly withdrawals: string
  readonly withdrawal_fees: string
  readonly fees_charged: string
  readonly events: number
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
 * Daily vault rows from `vault_daily`, the completed days the history rollup closed
 * (layers/postgres/DailyRollupLive.ts): a keyset read by (vault, day), never a scan of the event log.
 * Days the rollup has not closed yet (the day in progress, or while the backfill runs) are absent.
 */
export const VaultHistoryLive = Layer.effect(
  VaultHistory,
  Effect.gen(function*() {
    const sql = yield* SqlClient.SqlClient
    return VaultHistory.of({
      capitalFlows: Effect.gen(function*() {
        // Each term moves a position's `net_deposits` on chain the same way (switches: inferred). A
        // switch's net amount reaches the target as a pending deposit, counted by its `Allocated`.
        const rows = yield* sql<{ vault: string; deposited: string; withdrawn: string }>`
          SELECT vault, COALESCE(SUM(deposited), 0)::text AS deposited, COALESCE(SUM(withdrawn), 0)::text AS withdrawn FROM (
            SELECT vault,
              CASE WHEN name = 'Allocated' THEN (data->>'netAmount')::numeric ELSE 0 END AS deposited,
              CASE WHEN name = 'Redeemed' THEN (data->>'grossAmount')::numeric ELSE 0 END AS withdrawn
            FROM program_event WHERE name IN ('Allocated', 'Redeemed') AND vault IS NOT NULL
            UNION ALL
            SELECT data->>'sourceBundle', 0, (data->>'grossRedemption')::numeric
            FROM program_event WHERE name IN ('BundleSwitchCompleted', 'BundleSwitchFallbackToWallet')
          ) AS flows
          GROUP BY vault`
        const backfill = yield* sql<{ finished: boolean }>`SELECT finished FROM history_backfill WHERE id = 1`
        return {
          complete: backfill[0]?.finished === true,
          byVault: new Map(rows.map((row) => [row.vault, { deposited: BigInt(row.deposited), withdrawn: BigInt(row.withdrawn) }]))
        }
      }).pipe(Effect.withSpan("VaultHistory.capitalFlows")),
      dailyRows: ({ vault, from, to, after, limit }) => {
        const lower = [from, after === null ? null : addUtcDays(after, 1)].filter((d): d is string => d !== null).sort().pop() ?? "0001-01-01"
        return sql<Row>`
          SELECT to_char(day, 'YYYY-MM-DD') AS date, closing_share_price::text AS closing_price,
            closing_total_shares::text AS closing_shares, deposits_requested::text AS deposits,
            deposit_fees::text, withdrawals_paid::text AS withdrawals, withdrawal_fees::text, fees_charged::text, events
          FROM vault_daily
          WHERE vault = ${vault} AND NOT partial AND day >= ${lower}::date AND day <= ${to}::date
          ORDER BY day
          LIMIT ${limit}`.pipe(Effect.map((rows) => rows.map(toDailyRow)), Effect.withSpan("VaultHistory.dailyRows"))
      }
    })
  })
)
