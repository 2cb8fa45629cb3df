import { Effect, Layer, Option, Ref, Stream } from "effect"
import { IngestionProgress } from "../../services/IngestionProgress.ts"
import { ChainSource } from "../../services/ChainSource.ts"
import { type BackfillProgress, HistoryBackfill } from "../../services/HistoryBackfill.ts"
import { whenLeader } from "../../services/Leadership.ts"
import { Projection } from "../../services/Projection.ts"
import { SolanaRpc } from "../../services/SolanaRpc.ts"
import { backfillHistory, type BackfillTuning } from "./backfillHistory.ts"
import { backfillDone, backfillTotal, NO_TAGS } from "../../src/telemetry/instruments.ts"

export type HistoryBackfillOptions = BackfillTuning

/**
 * On a first start, fills the event log with the program's past transactions (see
 * `backfillHistory`). It starts once the projection is live, so its newest transaction is at or
 * past the live path's seam: the two overlap and no transaction falls between them, and the event
 * log, idempotent on signature, stores the overlap once. A restart resumes below the oldest stored
 * transaction.
 */
const recordBackfill = (progress: BackfillProgress): void => {
  backfillDone.unsafeUpdate(progress.done, NO_TAGS)
  if (progress.total !== null) backfillTotal.unsafeUpdate(progress.total, NO_TAGS)
}

export const HistoryBackfillLive = (options: HistoryBackfillOptions) =>
  Layer.scoped(
    HistoryBackfill,
    Effect.gen(function*() {
      const source = yield* ChainSource
      const projection = yield* Projection
      const rpc = yield* SolanaRpc
      const report = yield* Effect.serviceOption(IngestionProgress)
      const progress = yield* Ref.make<BackfillProgress>({ state: "pending", done: 0, total: null, oldestBlockTime: null })
      const firstLive = projection.statusChanges.pipe(Stream.filter((s) => s.status === "live"), Stream.take(1), Stream.runDrain)

      yield* Effect.forkScoped(
        firstLive.pipe(
          // only the leader backfills; a new leader resumes where the old one's saved progress stands
          Effect.zipRight(whenLeader(backfillHistory(rpc, source.programId, options, (next) => Ref.set(progress, next).pipe(Effect.zipLeft(Effect.sync(() => {
            recordBackfill(next)
            if (Option.isSome(report)) report.value.reportBackfill(next)
          })))))),
          Effect.catchAllCause((cause) => Effect.logError("history backfill stopped", cause)),
          Effect.withSpan("HistoryBackfill.run")
        )
      )
      return { progress: Ref.get(progress) }
    })
  )
