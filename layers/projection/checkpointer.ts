import { Deferred, Duration, Effect, Option, Queue, Schedule, type Scope } from "effect"
import { IngestionProgress } from "../../services/IngestionProgress.ts"
import type { ProgramEvents } from "../../services/ChainSource.ts"
import { ChainStore, type Checkpoint, type StoredAccount } from "../../services/ChainStore.ts"
import { checkpointDuration, checkpointWrittenAt, NO_TAGS } from "../../src/telemetry/instruments.ts"

export interface CheckpointJob {
  readonly transactions: ReadonlyArray<ProgramEvents>
  readonly checkpoint: {
    readonly position: Checkpoint
    readonly changed: ReadonlyArray<StoredAccount>
    readonly removed: ReadonlyArray<string>
  } | null
}

type Item = { readonly _tag: "Job"; readonly job: CheckpointJob } | { readonly _tag: "Drain"; readonly done: Deferred.Deferred<void> }

/**
 * Writes to PostgreSQL off the ingest path, one job at a time and in order (events before the
 * checkpoint that claims them). A failing job (database restarting) is retried until it lands, so
 * nothing is dropped; ingestion goes on meanwhile.
 */
export const startCheckpointer = (onWritten: (slot: number) => Effect.Effect<void>) => Effect.gen(function*() {
  const store = yield* ChainStore
  const progress = yield* Effect.serviceOption(IngestionProgress)
  const items = yield* Queue.unbounded<Item>()
  const run = (job: CheckpointJob) =>
    Effect.gen(function*() {
      if (job.transactions.length > 0) yield* store.appendTransactions(job.transactions)
      if (job.checkpoint !== null) {
        const { position, changed, removed } = job.checkpoint
        const started = performance.now()
        yield* store.saveCheckpoint(position, changed, removed)
        checkpointDuration.unsafeUpdate((performance.now() - started) / 1000, NO_TAGS)
        const writtenAt = Date.now() / 1000
        checkpointWrittenAt.unsafeUpdate(writtenAt, NO_TAGS)
        if (Option.isSome(progress)) progress.value.reportCheckpoint({ slot: position.slot, writtenAt })
        yield* onWritten(position.slot)
      }
    }).pipe(
      Effect.tapError((error) => Effect.logWarning(`persisting chain state failed, retrying: ${error.message}`)),
      Effect.retry(Schedule.exponential(Duration.millis(200)).pipe(Schedule.union(Schedule.spaced(Duration.seconds(5)))))
    )
  yield* Effect.forkScoped(
    Effect.forever(
      Effect.flatMap(Queue.take(items), (item) => (item._tag === "Job" ? run(item.job) : Deferred.succeed(item.done, undefined)))
    )
  )
  return {
    submit: (job: CheckpointJob) => Queue.unsafeOffer(items, { _tag: "Job", job }),
    /** Resolves once every job submitted before it has landed. */
    drain: Effect.gen(function*() {
      const done = yield* Deferred.make<void>()
      yield* Queue.offer(items, { _tag: "Drain", done })
      yield* Deferred.await(done)
    })
  }
}) satisfies Effect.Effect<unknown, unknown, ChainStore | Scope.Scope>

export type Checkpointer = Effect.Effect.Success<ReturnType<typeof startCheckpointer>>
