import { SqlClient } from "@effect/sql"
import { Effect, Layer } from "effect"
import { UserActivity } from "../../services/UserActivity.ts"
import { bounds, firstSlotAt, type Row, toUserEvent } from "./userActivitySql.ts"

// The name lists are written out in the statements (not bound parameters) so that the planner can
// prove the partial indexes of 0013 apply.
const COLUMNS = "signature, event_index, slot, block_time, name, vault, data"

/** A wallet's user events, on the wallet indexes of sql/0013. */
export const UserActivityLive = Layer.effect(
  UserActivity,
  Effect.gen(function*() {
    const sql = yield* SqlClient.SqlClient
    const columns = sql.literal(COLUMNS)
    let finished = false
    const complete = Effect.suspend(() =>
      finished
        ? Effect.succeed(true)
        : Effect.map(sql<{ finished: boolean }>`SELECT finished FROM history_backfill WHERE id = 1`, (rows) => (finished = rows[0]?.finished === true)))

    /** The position's events (its vault's, and switches out of or into it) within `where`, in `order`, at most `limit`. */
    const positionEvents = (vault: string, wallet: string, where: ReturnType<typeof bounds>, descending: boolean, limit: number | null) => {
      const order = sql.literal(descending ? "slot DESC, signature DESC, event_index DESC" : "slot, signature, event_index")
      const cap = limit === null ? sql.literal("") : sql`LIMIT ${limit}`
      return sql<Row>`
        SELECT * FROM (
          (SELECT ${columns} FROM program_event
           WHERE wallet = ${wallet} AND vault = ${vault} AND ${where}
             AND name IN ('DepositRequested', 'Allocated', 'RefundedDeposit', 'WithdrawalRequested', 'Redeemed', 'ChargedFeesToUser')
           ORDER BY ${order} ${cap})
          UNION ALL
          (SELECT ${columns} FROM program_event
           WHERE wallet = ${wallet} AND ${where}
             AND name IN ('BundleSwitchRequested', 'BundleSwitchCompleted', 'BundleSwitchFallbackToWallet')
             AND (data->>'sourceBundle' = ${vault} OR data->>'targetBundle' = ${vault})
           ORDER BY ${order} ${cap})
        ) AS events
        ORDER BY ${order} ${cap}`
    }

    return UserActivity.of({
      page: ({ wallet, vault, from, to, before, limit }) =>
        Effect.gen(function*() {
          const fromSlot = yield* firstSlotAt(sql, from)
          const toSlot = yield* firstSlotAt(sql, to)
          const where = bounds(sql, { fromSlot, toSlot, from, to, before })
          const rows = vault === null
            ? yield* sql<Row>`
                SELECT ${columns} FROM program_event
                WHERE wallet = ${wallet} AND ${where}
                  AND name IN ('DepositRequested', 'Allocated', 'RefundedDeposit', 'WithdrawalRequested', 'Redeemed',
                               'ChargedFeesToUser', 'BundleSwitchRequested', 'BundleSwitchCompleted', 'BundleSwitchFallbackToWallet')
                ORDER BY slot DESC, signature DESC, event_index DESC
                LIMIT ${limit}`
            : yield* positionEvents(vault, wallet, where, true, limit)
          return rows.map(toUserEvent)
        }).pipe(Effect.withSpan("UserActivity.page")),
      window: ({ vault, wallet, from, to }) =>
        Effect.gen(function*() {
          const fromSlot = yield* firstSlotAt(sql, from)
          const toSlot = yield* firstSlotAt(sql, to)
          const rows = yield* positionEvents(vault, wallet, bounds(sql, { fromSlot, toSlot, from, to, before: null }), false, null)
          return rows.map(toUserEvent)
        }).pipe(Effect.withSpan("UserActivity.window")),
      before: ({ vault, wallet, before, limit }) =>
        Effect.gen(function*() {
          const toSlot = yield* firstSlotAt(sql, before)
          const rows = yield* positionEvents(vault, wallet, bounds(sql, { fromSlot: null, toSlot, from: null, to: before, before: null }), true, limit)
          return rows.map(toUserEvent)
        }).pipe(Effect.withSpan("UserActivity.before")),
      span: ({ vault, wallet }) =>
        sql<{ first: string | number | null; last: string | number | null }>`
          SELECT
            (SELECT block_time FROM program_event
             WHERE wallet = ${wallet} AND vault = ${vault}
               AND name IN ('DepositRequested', 'Allocated', 'RefundedDeposit', 'WithdrawalRequested', 'Redeemed', 'ChargedFeesToUser')
             ORDER BY slot, signature, event_index LIMIT 1) AS first,
            (SELECT block_time FROM program_event
             WHERE wallet = ${wallet} AND vault = ${vault}
               AND name IN ('DepositRequested', 'Allocated', 'RefundedDeposit', 'WithdrawalRequested', 'Redeemed', 'ChargedFeesToUser')
             ORDER BY slot DESC, signature DESC, event_index DESC LIMIT 1) AS last`.pipe(
          Effect.map(([row]) => ({
            first: row?.first == null ? null : Number(row.first),
            last: row?.last == null ? null : Number(row.last)
          })),
          Effect.withSpan("UserActivity.span")
        ),
      // a skip scan over the wallet's vault index: one probe per vault, not one row per event
      vaultsOf: (wallet) =>
        sql<{ vault: string }>`
          WITH RECURSIVE vaults AS (
            (SELECT vault FROM program_event
             WHERE wallet = ${wallet} AND vault IS NOT NULL
               AND name IN ('DepositRequested', 'Allocated', 'RefundedDeposit', 'WithdrawalRequested', 'Redeemed', 'ChargedFeesToUser')
             ORDER BY vault LIMIT 1)
            UNION ALL
            SELECT (SELECT p.vault FROM program_event p
                    WHERE p.wallet = ${wallet} AND p.vault > vaults.vault
                      AND p.name IN ('DepositRequested', 'Allocated', 'RefundedDeposit', 'WithdrawalRequested', 'Redeemed', 'ChargedFeesToUser')
                    ORDER BY p.vault LIMIT 1)
            FROM vaults WHERE vaults.vault IS NOT NULL
          )
          SELECT vault FROM vaults WHERE vault IS NOT NULL`.pipe(
          Effect.map((rows) => rows.map((row) => row.vault)),
          Effect.withSpan("UserActivity.vaultsOf")
        ),
      complete
    })
  })
)
