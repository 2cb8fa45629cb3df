import type { SqlClient } from "@effect/sql/SqlClient"
import { Array as Arr, Effect } from "effect"
import type { LoggedEvent } from "../../src/domain/history/loggedEvent.ts"
import type { DayRows, ReferrerDailyRow, VaultDailyRecord } from "../../src/domain/history/referrerDailyRow.ts"
import { type CloseRecords, insertCloseRecords, NO_CLOSE_RECORDS } from "./metricsHistorySql.ts"

/** Rows per multi-row insert (at most 14 parameters per row: far below PostgreSQL's 65,535). */
const INSERT_CHUNK_ROWS = 1_000

export interface RollupState {
  readonly liveSince: number
  readonly closedThrough: string | null
  readonly coveredThrough: number | null
}

/** The rollup's state, creating it with `liveSince` on the first call (later calls keep the first value). */
export const ensureRollupState = (sql: SqlClient, liveSince: number) =>
  Effect.zipRight(
    sql`INSERT INTO history_rollup (id, live_since) VALUES (1, ${liveSince}) ON CONFLICT (id) DO NOTHING`,
    Effect.map(loadRollupState(sql), (state) => state!)
  )

export const loadRollupState = (sql: SqlClient) =>
  Effect.map(
    sql<{ live_since: string; closed_through: string | null; covered_through: string | null }>`
      SELECT live_since::text, to_char(closed_through, 'YYYY-MM-DD') AS closed_through, covered_through::text
      FROM history_rollup WHERE id = 1`,
    (rows): RollupState | null => {
      const row = rows[0]
      return row === undefined
        ? null
        : {
          liveSince: Number(row.live_since),
          closedThrough: row.closed_through,
          coveredThrough: row.covered_through === null ? null : Number(row.covered_through)
        }
    }
  )

/** `genesis hash:program id` of the stored checkpoint (null before the first checkpoint). */
export const checkpointChain = (sql: SqlClient) =>
  Effect.map(
    sql<{ chain: string }>`SELECT genesis_hash || ':' || program_id AS chain FROM checkpoint WHERE id = 1`,
    (rows) => rows[0]?.chain ?? null
  )

/**
 * Binds the daily rows to `chain`. Rows closed from another chain's event log (discarded when the
 * gateway met a different chain or program) are dropped, and the rollup starts over with
 * `liveSince`. Returns the state to continue from.
 */
export const bindRollupChain = (sql: SqlClient, chain: string, liveSince: number) =>
  sql.withTransaction(
    Effect.gen(function*() {
      const rows = yield* sql<{ chain: string | null }>`SELECT chain FROM history_rollup WHERE id = 1 FOR UPDATE`
      const bound = rows[0]?.chain ?? null
      if (bound !== null && bound !== chain) {
        yield* sql`TRUNCATE vault_daily, referrer_daily, vault_metrics_daily`
        yield* sql`
          UPDATE history_rollup SET chain = ${chain}, live_since = ${liveSince}, closed_through = NULL,
            covered_through = NULL, updated_at = now()
          WHERE id = 1`
      } else if (bound === null) {
        yield* sql`UPDATE history_rollup SET chain = ${chain}, updated_at = now() WHERE id = 1`
      }
      return { dropped: bound !== null && bound !== chain, state: (yield* loadRollupState(sql))! }
    })
  )

/**
 * Chain time below which the event log is complete: the newer of the checkpoint's block time and the
 * newest stored transaction's. Transactions are stored in chain order, so every one of an earlier
 * second is stored; one of the same second may still be on its way, hence "below". Null: nothing yet.
 */
export const storedThrough = (sql: SqlClient) =>
  Effect.map(
    sql<{ through: string | null }>`
      SELECT GREATEST(
        (SELECT block_time FROM checkpoint WHERE id = 1),
        (SELECT block_time FROM chain_transaction ORDER BY slot DESC LIMIT 1)
      )::text AS through`,
    (rows) => (rows[0]?.through == null ? null : Number(rows[0].through))
  )

export interface LogPosition {
  readonly slot: number
  readonly signature: string
  readonly eventIndex: number
}

interface EventRow {
  readonly slot: string
  readonly signature: string
  readonly event_index: number
  readonly block_time: string
  readonly name: string
  readonly vault: string | null
  readonly wallet: string | null
  readonly data: Record<string, unknown>
}

/**
 * Events after `after` in chain order with a block time below `below`; events without one are skipped.
 * The order names the table's column: a bare `slot` would be the selected `slot::text` (PostgreSQL
 * resolves ORDER BY names to output columns first), a text order ("1000" < "999") that disagrees
 * with the keyset condition and cannot use the chain-order index.
 */
export const eventsPage = (sql: SqlClient, after: LogPosition | null, below: number, limit: number) => {
  const position = after === null
    ? sql.literal("TRUE")
    : sql`(slot, signature, event_index) > (${after.slot}, ${after.signature}, ${after.eventIndex})`
  return Effect.map(
    sql<EventRow>`
      SELECT slot::text, signature, event_index, block_time::text, name, vault, wallet, data
      FROM program_event
      WHERE ${position} AND block_time IS NOT NULL AND block_time < ${below}
      ORDER BY program_event.slot, signature, event_index
      LIMIT ${limit}`,
    (rows) =>
      rows.map((row): LoggedEvent => ({
        slot: Number(row.slot),
        signature: row.signature,
        eventIndex: row.event_index,
        blockTime: Number(row.block_time),
        name: row.name,
        vault: row.vault,
        wallet: row.wallet,
        data: typeof row.data === "string" ? JSON.parse(row.data) : row.data
      }))
  )
}

const text = (value: bigint | null) => (value === null ? null : value.toString())

const vaultRow = (row: VaultDailyRecord, partialThrough: number | null) => ({
  vault: row.vault,
  day: row.date,
  closing_share_price: text(row.closingSharePrice),
  closing_total_shares: text(row.closingTotalShares),
  deposits_requested: row.depositsRequested.toString(),
  deposit_fees: row.depositFees.toString(),
  withdrawals_paid: row.withdrawalsPaid.toString(),
  withdrawal_fees: row.withdrawalFees.toString(),
  fees_charged: row.feesCharged.toString(),
  events: row.events,
  partial: partialThrough !== null,
  partial_through: partialThrough
})

const referrerRow = (row: ReferrerDailyRow) => ({
  referrer: row.referrer,
  day: row.date,
  vault: row.vault,
  mfee_shares: row.mfeeShares.toString(),
  pfee_shares: row.pfeeShares.toString(),
  closing_share_price: text(row.closingSharePrice),
  cohort_shares: row.cohortShares.toString(),
  flows_in: row.flowsIn.toString(),
  flows_out: row.flowsOut.toString(),
  attributed_users: row.attributedUsers,
  referred_net_deposits: row.referredNetDeposits.toString(),
  legacy_flags: row.legacyFlags,
  partial: row.partialThrough !== null,
  partial_through: row.partialThrough
})

/** `col = EXCLUDED.col` while the stored row is provisional; a completed day keeps its values (it closes once). */
const keepCompleted = (sql: SqlClient, table: string, columns: ReadonlyArray<string>) =>
  sql.literal(
    columns.map((column) => `${column} = CASE WHEN ${table}.partial THEN EXCLUDED.${column} ELSE ${table}.${column} END`).join(", ")
  )

const VAULT_VALUES = [
  "closing_share_price", "closing_total_shares", "deposits_requested", "deposit_fees", "withdrawals_paid",
  "withdrawal_fees", "fees_charged", "events", "partial_through"
]
const REFERRER_VALUES = [
  "mfee_shares", "pfee_shares", "closing_share_price", "cohort_shares", "flows_in", "flows_out",
  "attributed_users", "referred_net_deposits", "partial_through"
]

const upsertVaultRows = (sql: SqlClient, rows: ReadonlyArray<ReturnType<typeof vaultRow>>) =>
  Effect.forEach(Arr.chunksOf(rows, INSERT_CHUNK_ROWS), (chunk) =>
    sql`
      INSERT INTO vault_daily ${sql.insert(chunk)}
      ON CONFLICT (vault, day) DO UPDATE SET ${keepCompleted(sql, "vault_daily", VAULT_VALUES)},
        partial = vault_daily.partial AND EXCLUDED.partial`, { discard: true })

const upsertReferrerRows = (sql: SqlClient, rows: ReadonlyArray<ReturnType<typeof referrerRow>>) =>
  Effect.forEach(Arr.chunksOf(rows, INSERT_CHUNK_ROWS), (chunk) =>
    sql`
      INSERT INTO referrer_daily ${sql.insert(chunk)}
      ON CONFLICT (referrer, day, vault) DO UPDATE SET ${keepCompleted(sql, "referrer_daily", REFERRER_VALUES)},
        legacy_flags = referrer_daily.legacy_flags | EXCLUDED.legacy_flags,
        partial = referrer_daily.partial AND EXCLUDED.partial`, { discard: true })

/**
 * Stores completed days and the day in progress in one transaction with the rollup's position, so a
 * reader sees a day with all its vaults and builders or not at all. Completed days keep their values
 * once stored; legacy flags are ORed into what is stored. Provisional rows of earlier days (now
 * completed) are dropped. `records` (metrics rows and close prices of the days closed) are stored
 * in the same transaction.
 */
export const writeDays = (
  sql: SqlClient,
  closed: ReadonlyArray<DayRows>,
  provisional: DayRows | null,
  coveredThrough: number | null,
  records: CloseRecords = NO_CLOSE_RECORDS
) =>
  sql.withTransaction(
    Effect.gen(function*() {
      yield* insertCloseRecords(sql, records)
      const completed = closed.flatMap((day) => day.vaults.map((row) => vaultRow(row, null)))
      const current = provisional === null || coveredThrough === null ? [] : provisional.vaults.map((row) => vaultRow(row, coveredThrough))
      yield* upsertVaultRows(sql, [...completed, ...current])
      const currentReferrers = provisional === null || coveredThrough === null ? [] : provisional.referrers
      yield* upsertReferrerRows(sql, [...closed.flatMap((day) => day.referrers), ...currentReferrers].map(referrerRow))
      const closedThrough = closed.length === 0 ? null : closed[closed.length - 1]!.date
      if (provisional !== null && coveredThrough !== null) {
        yield* sql`DELETE FROM vault_daily WHERE partial AND day < ${provisional.date}::date`
        yield* sql`DELETE FROM referrer_daily WHERE partial AND day < ${provisional.date}::date`
      }
      yield* sql`
        UPDATE history_rollup SET
          closed_through = GREATEST(closed_through, ${closedThrough}::date),
          covered_through = GREATEST(covered_through, ${coveredThrough}),
          updated_at = now()
        WHERE id = 1`
    })
  )
