import { SqlClient } from "@effect/sql"
import { Effect, Layer } from "effect"
import { PositionRequests, type RequestEventName } from "../../services/PositionRequests.ts"

interface Row {
  readonly name: RequestEventName
  readonly slot: string | number
  readonly block_time: string | number | null
  readonly data: Readonly<Record<string, unknown>> | string
}

/** A position's request events, newest first, over the flow index (vault, wallet, slot desc) of 0011. */
export const PositionRequestsLive = Layer.effect(
  PositionRequests,
  Effect.gen(function*() {
    const sql = yield* SqlClient.SqlClient
    let complete = false
    const historyComplete = Effect.suspend(() =>
      complete
        ? Effect.succeed(true)
        : Effect.map(sql<{ finished: boolean }>`SELECT finished FROM history_backfill WHERE id = 1`, (rows) => (complete = rows[0]?.finished === true)))
    return PositionRequests.of({
      recent: (vault, wallet, limit) =>
        Effect.all({
          rows: sql<Row>`
            SELECT name, slot, block_time, data FROM program_event
            WHERE vault = ${vault} AND wallet = ${wallet}
              AND name IN ('DepositRequested', 'Allocated', 'WithdrawalRequested', 'Redeemed', 'RefundedDeposit')
            ORDER BY slot DESC, signature DESC, event_index DESC
            LIMIT ${limit}`,
          complete: historyComplete
        }).pipe(
          Effect.map(({ complete, rows }) => ({
            complete,
            events: rows.map((row) => ({
              name: row.name,
              slot: Number(row.slot),
              blockTime: row.block_time === null ? null : Number(row.block_time),
              data: typeof row.data === "string" ? JSON.parse(row.data) as Record<string, unknown> : row.data
            }))
          })),
          Effect.withSpan("PositionRequests.recent")
        )
    })
  })
)
