import { SqlClient } from "@effect/sql"
import { Effect, Layer, Stream } from "effect"
import type Pg from "pg"
import { ChainStore, ChainStoreError } from "../../services/ChainStore.ts"
import { streamAccounts } from "./accountStreamSql.ts"
import { storeFailure } from "./chainStoreErrors.ts"
import { loadCheckpoint, saveCheckpoint } from "./checkpointSql.ts"
import { appendTransactions, hasTransactions } from "./eventLogSql.ts"
import { PgPool } from "./pgPool.ts"

/**
 * A connection lost inside a transaction makes the driver's ROLLBACK die rather than fail; callers
 * retry store failures, so a lost connection must be one.
 */
const lostConnectionAsFailure = (what: string) => <A, E, R>(effect: Effect.Effect<A, E, R>): Effect.Effect<A, E | ChainStoreError, R> =>
  Effect.catchAllDefect(effect, (defect) => Effect.fail(new ChainStoreError({ message: `could not ${what}: the database connection was lost`, cause: defect })))

const makeChainStore = (sql: SqlClient.SqlClient, pool: Pg.Pool): ChainStore["Type"] => ({
  loadCheckpoint: loadCheckpoint(sql).pipe(
    Effect.mapError(storeFailure("load the checkpoint")),
    Effect.withSpan("ChainStore.loadCheckpoint")
  ),

  checkpointedAccounts: streamAccounts(sql).pipe(
    Stream.mapError(storeFailure("read the checkpointed accounts")),
    Stream.withSpan("ChainStore.checkpointedAccounts")
  ),

  saveCheckpoint: (checkpoint, changed, removed) =>
    saveCheckpoint(sql, checkpoint, changed, removed).pipe(
      Effect.mapError(
        storeFailure(
          `save the checkpoint at slot ${checkpoint.slot} (${changed.length} changed, ${removed.length} removed accounts)`
        )
      ),
      lostConnectionAsFailure("save the checkpoint"),
      Effect.withSpan("ChainStore.saveCheckpoint", {
        attributes: { slot: checkpoint.slot, changed: changed.length, removed: removed.length }
      })
    ),

  appendTransactions: (transactions) =>
    appendTransactions(pool, transactions).pipe(
      Effect.catchTag("SqlError", (error) =>
        Effect.fail(storeFailure(`append ${transactions.length} transactions to the event log`)(error))),
      lostConnectionAsFailure("append to the event log"),
      Effect.withSpan("ChainStore.appendTransactions", { attributes: { transactions: transactions.length } })
    ),

  hasTransactions: hasTransactions(sql).pipe(
    Effect.mapError(storeFailure("read the event log")),
    Effect.withSpan("ChainStore.hasTransactions")
  ),

  // The backfill's progress describes the discarded event log: another chain starts its history over.
  discardAll: sql`TRUNCATE checkpoint, chain_account, program_event, chain_transaction, history_backfill`.pipe(
    Effect.asVoid,
    Effect.mapError(storeFailure("discard the checkpoint and the event log")),
    Effect.withSpan("ChainStore.discardAll")
  )
})

/** ChainStore on PostgreSQL (tables of `sql/0001_chain_state.sql` and `sql/0002_event_log.sql`). */
export const ChainStoreLive: Layer.Layer<ChainStore, never, SqlClient.SqlClient | PgPool> = Layer.effect(
  ChainStore,
  Effect.zipWith(SqlClient.SqlClient, PgPool, makeChainStore)
)
