import { address } from "@solana/kit"
import { Duration, Effect, Layer, Option, Ref, Schedule, Stream } from "effect"
import { BackfillStore, type BackfillState } from "../../services/BackfillStore.ts"
import { ChainSource, ChainSourceError, type ProgramEvents } from "../../services/ChainSource.ts"
import { ChainStore } from "../../services/ChainStore.ts"
import { type BackfillProgress, HistoryBackfill } from "../../services/HistoryBackfill.ts"
import { Projection } from "../../services/Projection.ts"
import { makeRpc } from "./rpc.ts"
import { fetchProgramTransaction, signaturesBefore } from "./transactions.ts"

export interface HistoryBackfillOptions {
  /** Only transactions at or after this unix time; null backfills the program's whole history. */
  readonly since: number | null
  readonly concurrency?: number
  readonly chunkSize?: number
}

const EMPTY: BackfillState = {
  newestSignature: null,
  oldestSignature: null,
  oldestBlockTime: null,
  doneCount: 0,
  totalCount: null,
  finished: false
}

const retrying = Schedule.exponential(Duration.millis(500)).pipe(Schedule.union(Schedule.spaced(Duration.seconds(10))))

/**
 * On a first start, fetches the program's past transactions (newest to oldest, so whole recent days
 * complete first) into the event log with bounded concurrency. It starts once the projection is
 * live, so its newest transaction is at or past the live path's seam: the two overlap and no
 * transaction falls between them, and the event log, idempotent on signature, stores the overlap
 * once. Progress is saved after every chunk; a restart resumes below the oldest stored transaction.
 */
export const HistoryBackfillLive = (options: HistoryBackfillOptions) =>
  Layer.scoped(
    HistoryBackfill,
    Effect.gen(function*() {
      const source = yield* ChainSource
      const chainStore = yield* ChainStore
      const store = yield* BackfillStore
      const rpc = makeRpc(source.rpcUrl)
      const program = address(source.programId)
      const concurrency = options.concurrency ?? 8
      const chunkSize = options.chunkSize ?? 200
      const progress = yield* Ref.make<BackfillProgress>({ state: "pending", done: 0, total: null, oldestBlockTime: null })
      const report = (next: BackfillProgress) => Ref.set(progress, next)

      const fetchTransaction = (signature: string) =>
        Effect.tryPromise({
          try: () => fetchProgramTransaction(rpc, source.programId, signature),
          catch: (cause) => new ChainSourceError({ message: `getTransaction ${signature}: ${String(cause)}`, cause })
        }).pipe(Effect.retry(retrying))

      const projection = yield* Projection
      const firstLive = projection.statusChanges.pipe(Stream.filter((s) => s.status === "live"), Stream.take(1), Stream.runDrain)

      const run = Effect.gen(function*() {
        yield* firstLive
        const saved = Option.getOrElse(yield* store.load, () => EMPTY)
        if (saved.finished) {
          yield* report({ state: "done", done: saved.doneCount, total: saved.totalCount, oldestBlockTime: saved.oldestBlockTime })
          return
        }
        yield* report({ state: "running", done: saved.doneCount, total: saved.totalCount, oldestBlockTime: saved.oldestBlockTime })
        const remaining = yield* Effect.tryPromise({
          try: () => signaturesBefore(rpc, program, saved.oldestSignature, options.since),
          catch: (cause) => new ChainSourceError({ message: `listing past transactions: ${String(cause)}`, cause })
        }).pipe(Effect.retry(retrying))
        let state: BackfillState = {
          ...saved,
          newestSignature: saved.newestSignature ?? remaining[0]?.signature ?? null,
          totalCount: saved.doneCount + remaining.length
        }
        yield* Effect.logInfo(`history backfill: ${remaining.length} past transactions to fetch`)
        const started = Date.now()
        let lastLog = started
        for (let start = 0; start < remaining.length; start += chunkSize) {
          const chunk = remaining.slice(start, start + chunkSize)
          const fetched = yield* Effect.forEach(chunk, (entry) => fetchTransaction(entry.signature), { concurrency })
          const transactions = fetched.filter((tx): tx is ProgramEvents => tx !== null)
          if (transactions.length < chunk.length) {
            yield* Effect.logWarning(`history backfill: ${chunk.length - transactions.length} transactions are no longer served by the node`)
          }
          yield* chainStore.appendTransactions(transactions).pipe(Effect.retry(retrying))
          const oldest = chunk[chunk.length - 1]!
          state = { ...state, oldestSignature: oldest.signature, oldestBlockTime: oldest.blockTime, doneCount: state.doneCount + chunk.length }
          yield* store.save(state).pipe(Effect.retry(retrying))
          yield* report({ state: "running", done: state.doneCount, total: state.totalCount, oldestBlockTime: state.oldestBlockTime })
          if (Date.now() - lastLog > 5_000 || start + chunkSize >= remaining.length) {
            lastLog = Date.now()
            const rate = Math.round(((start + chunk.length) * 1000) / Math.max(1, Date.now() - started))
            yield* Effect.logInfo(`history backfill: ${state.doneCount}/${state.totalCount} transactions (${rate}/s)`)
          }
        }
        state = { ...state, finished: true }
        yield* store.save(state).pipe(Effect.retry(retrying))
        yield* report({ state: "done", done: state.doneCount, total: state.totalCount, oldestBlockTime: state.oldestBlockTime })
        yield* Effect.logInfo("history backfill: complete")
      })

      yield* Effect.forkScoped(
        run.pipe(Effect.catchAllCause((cause) => Effect.logError("history backfill stopped", cause)), Effect.withSpan("HistoryBackfill.run"))
      )
      return { progress: Ref.get(progress) }
    })
  )
