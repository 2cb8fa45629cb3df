import { Chunk, Duration, Effect, Option, Schedule, Stream } from "effect"
import type { BackfillState } from "../../services/BackfillStore.ts"
import { BackfillStore } from "../../services/BackfillStore.ts"
import type { ProgramEvents } from "../../services/ChainSource.ts"
import { ChainStore } from "../../services/ChainStore.ts"
import type { BackfillProgress } from "../../services/HistoryBackfill.ts"
import type { SolanaRpc } from "../../services/SolanaRpc.ts"
import { fetchProgramTransactions, type HistoricalSignature, signaturesBefore } from "./transactions.ts"

export interface BackfillTuning {
  /** Only transactions at or after this unix time; null backfills the program's whole history. */
  readonly since: number | null
  /** getTransaction calls per JSON-RPC batch. */
  readonly batchSize?: number
  /** Batches in flight at once. */
  readonly concurrency?: number
  /** Transactions per write to the event log (and per saved progress). */
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

const progressOf = (state: BackfillState, running: boolean): BackfillProgress => ({
  state: state.finished ? "done" : running ? "running" : "pending",
  done: state.doneCount,
  total: state.totalCount,
  oldestBlockTime: state.oldestBlockTime
})

/**
 * Fetches the program's past transactions, newest to oldest (whole recent days complete first),
 * into the event log: batched getTransaction calls with a bounded number in flight, written a
 * chunk at a time on two connections at once (the database's work on a chunk is the larger part,
 * and one write would leave the other core idle). The position is saved in listing order, so that
 * it always means "everything from the newest down to here is stored" and a restart resumes below
 * it. Writes are idempotent on signature, so an overlap with the live path or a chunk written again
 * after a crash is stored once.
 */
export const backfillHistory = (
  rpc: SolanaRpc["Type"],
  programId: string,
  tuning: BackfillTuning,
  report: (progress: BackfillProgress) => Effect.Effect<void>
) =>
  Effect.gen(function*() {
    const chainStore = yield* ChainStore
    const store = yield* BackfillStore
    const batchSize = tuning.batchSize ?? 100
    const concurrency = tuning.concurrency ?? 4
    const batchesPerChunk = Math.max(1, Math.round((tuning.chunkSize ?? 1_000) / batchSize))

    const saved = Option.getOrElse(yield* store.load, () => EMPTY)
    if (saved.finished) return yield* report(progressOf(saved, false))
    yield* report(progressOf(saved, true))
    const remaining = yield* signaturesBefore(rpc, programId, saved.oldestSignature, tuning.since).pipe(
      Effect.tapError((error) => Effect.logWarning(`history backfill: listing past transactions: ${error.message}; retrying`)),
      Effect.retry(retrying)
    )
    let state: BackfillState = {
      ...saved,
      newestSignature: saved.newestSignature ?? remaining[0]?.signature ?? null,
      totalCount: saved.doneCount + remaining.length
    }
    yield* Effect.logInfo(`history backfill: ${remaining.length} past transactions to fetch`)

    const fetchBatch = (batch: ReadonlyArray<HistoricalSignature>) =>
      fetchProgramTransactions(rpc, programId, batch.map((entry) => entry.signature)).pipe(
        Effect.tapError((error) => Effect.logWarning(`history backfill: ${error.message}; retrying`)),
        Effect.retry(retrying),
        Effect.map((fetched) => ({ batch, fetched }))
      )

    const started = Date.now()
    let lastLog = started
    type Fetched = { batch: ReadonlyArray<HistoricalSignature>; fetched: ReadonlyArray<ProgramEvents | null> }
    const appendChunk = (chunk: ReadonlyArray<Fetched>) =>
      Effect.gen(function*() {
        const transactions = chunk.flatMap(({ fetched }) => fetched.filter((tx): tx is ProgramEvents => tx !== null))
        const listed = chunk.reduce((sum, { batch }) => sum + batch.length, 0)
        if (transactions.length < listed) {
          yield* Effect.logWarning(`history backfill: ${listed - transactions.length} transactions are no longer served by the node`)
        }
        yield* chainStore.appendTransactions(transactions).pipe(Effect.retry(retrying))
        return chunk
      })
    const saveProgress = (chunk: ReadonlyArray<Fetched>) =>
      Effect.gen(function*() {
        const listed = chunk.reduce((sum, { batch }) => sum + batch.length, 0)
        const lastBatch = chunk[chunk.length - 1]!.batch
        const oldest = lastBatch[lastBatch.length - 1]!
        state = { ...state, oldestSignature: oldest.signature, oldestBlockTime: oldest.blockTime, doneCount: state.doneCount + listed }
        yield* store.save(state).pipe(Effect.retry(retrying))
        yield* report(progressOf(state, true))
        if (Date.now() - lastLog > 5_000) {
          lastLog = Date.now()
          const rate = Math.round(((state.doneCount - saved.doneCount) * 1000) / Math.max(1, Date.now() - started))
          yield* Effect.logInfo(`history backfill: ${state.doneCount}/${state.totalCount} transactions (${rate}/s)`)
        }
      })

    const batches: Array<ReadonlyArray<HistoricalSignature>> = []
    for (let start = 0; start < remaining.length; start += batchSize) batches.push(remaining.slice(start, start + batchSize))
    yield* Stream.fromIterable(batches).pipe(
      // Ordered: batches come out in listing order however their fetches interleave.
      Stream.mapEffect(fetchBatch, { concurrency }),
      Stream.grouped(batchesPerChunk),
      // Two chunks are written at once (on two connections), and fetching goes on meanwhile; the
      // position is saved in listing order, once a chunk and every chunk before it are stored.
      Stream.mapEffect((chunk) => appendChunk(Chunk.toReadonlyArray(chunk)), { concurrency: 2 }),
      Stream.runForEach(saveProgress)
    )

    state = { ...state, finished: true }
    yield* store.save(state).pipe(Effect.retry(retrying))
    yield* report(progressOf(state, false))
    const seconds = (Date.now() - started) / 1000
    yield* Effect.logInfo(
      `history backfill: complete, ${state.doneCount - saved.doneCount} transactions in ${seconds.toFixed(1)} s (${Math.round((state.doneCount - saved.doneCount) / Math.max(seconds, 0.001))}/s)`
    )
  })
