import { SqlClient } from "@effect/sql"
import { Effect, Layer, Option } from "effect"
import { BackfillStore, type BackfillState } from "../../services/BackfillStore.ts"
import { ChainStoreError } from "../../services/ChainStore.ts"

interface Row {
  readonly newestSignature: string | null
  readonly oldestSignature: string | null
  readonly oldestBlockTime: string | null
  readonly doneCount: string
  readonly totalCount: string | null
  readonly finished: boolean
}

const toError = (what: string) => (cause: unknown) => new ChainStoreError({ message: `${what}: ${String(cause)}`, cause })

export const BackfillStoreLive = Layer.effect(
  BackfillStore,
  Effect.gen(function*() {
    const sql = yield* SqlClient.SqlClient
    return {
      load: sql<Row>`
        SELECT newest_signature AS "newestSignature", oldest_signature AS "oldestSignature",
               oldest_block_time AS "oldestBlockTime", done_count AS "doneCount",
               total_count AS "totalCount", finished
        FROM history_backfill WHERE id = 1`.pipe(
        Effect.map((rows) =>
          Option.map(Option.fromNullable(rows[0]), (row): BackfillState => ({
            newestSignature: row.newestSignature,
            oldestSignature: row.oldestSignature,
            oldestBlockTime: row.oldestBlockTime === null ? null : Number(row.oldestBlockTime),
            doneCount: Number(row.doneCount),
            totalCount: row.totalCount === null ? null : Number(row.totalCount),
            finished: row.finished
          }))
        ),
        Effect.mapError(toError("loading the backfill state")),
        Effect.withSpan("BackfillStore.load")
      ),
      save: (state: BackfillState) =>
        sql`
          INSERT INTO history_backfill (id, newest_signature, oldest_signature, oldest_block_time, done_count, total_count, finished, updated_at)
          VALUES (1, ${state.newestSignature}, ${state.oldestSignature}, ${state.oldestBlockTime}, ${state.doneCount}, ${state.totalCount}, ${state.finished}, now())
          ON CONFLICT (id) DO UPDATE SET
            newest_signature = EXCLUDED.newest_signature, oldest_signature = EXCLUDED.oldest_signature,
            oldest_block_time = EXCLUDED.oldest_block_time, done_count = EXCLUDED.done_count,
            total_count = EXCLUDED.total_count, finished = EXCLUDED.finished, updated_at = now()`.pipe(
          Effect.asVoid,
          Effect.mapError(toError("saving the backfill state")),
          Effect.withSpan("BackfillStore.save")
        )
    }
  })
)
