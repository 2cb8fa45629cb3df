import { address } from "@solana/kit"
import { Duration, Effect, Layer, Queue, Random, Stream } from "effect"
import { ChainSource, ChainSourceError, type ChainEvent, type ResumePoint } from "../../services/ChainSource.ts"
import { fetchAccounts } from "./accounts.ts"
import { makeJsonRpcClient } from "./jsonRpcClient.ts"
import { makeRpc, makeSubscriptions } from "./rpc.ts"
import { type Cursor, runSession, type SessionOptions } from "./session.ts"
import { RecentSignatures } from "./sessionItems.ts"

export interface ChainSourceOptions {
  readonly rpcUrl: string
  readonly wsUrl: string
  readonly programId: string
  /** Accounts of other programs to follow with the program's (the Pyth price feed accounts). */
  readonly watchedAccounts?: ReadonlyArray<string>
  readonly bufferSize?: number
  readonly reconcileInterval?: Duration.DurationInput
  readonly stallSlots?: number
  readonly stallTimeout?: Duration.DurationInput
  readonly maxBackfill?: number
  readonly fetchConcurrency?: number
  /** Upper bound of the jittered reconnect backoff. */
  readonly maxBackoff?: Duration.DurationInput
}

const failure = (message: string, cause?: unknown) => new ChainSourceError({ message, cause })

/** Full-jitter exponential backoff: 250 ms doubling up to the bound; reset after a healthy connection. */
const backoffMillis = (attempt: number, maxMs: number) =>
  Random.nextIntBetween(0, Math.min(maxMs, 250 * 2 ** Math.min(attempt, 16)) + 1)

const HEALTHY_CONNECTION_MS = 30_000

export const ChainSourceLive = (options: ChainSourceOptions) =>
  Layer.sync(ChainSource, () => {
    const rpc = makeRpc(options.rpcUrl)
    const client = makeJsonRpcClient({ url: options.rpcUrl })
    const program = address(options.programId)
    const sessionOptions: SessionOptions = {
      program,
      watched: [...new Set(options.watchedAccounts ?? [])].map((watched) => address(watched)),
      bufferSize: options.bufferSize ?? 200_000,
      reconcileInterval: Duration.decode(options.reconcileInterval ?? Duration.seconds(2)),
      stallSlots: options.stallSlots ?? 30,
      stallTimeout: Duration.decode(options.stallTimeout ?? Duration.seconds(5)),
      maxBackfill: options.maxBackfill ?? 50_000,
      fetchConcurrency: options.fetchConcurrency ?? 8
    }
    const maxBackoffMs = Duration.toMillis(Duration.decode(options.maxBackoff ?? Duration.seconds(10)))

    const events = (resume: ResumePoint): Stream.Stream<ChainEvent, ChainSourceError> =>
      Stream.unwrapScoped(
        Effect.gen(function*() {
          const out = yield* Queue.bounded<ChainEvent>(8_192)
          const cursor: Cursor = {
            signature: resume.lastSignature,
            slot: 0,
            needsSnapshot: resume.needsSnapshot,
            delivered: new RecentSignatures(200_000)
          }
          const connectForever = Effect.gen(function*() {
            for (let attempt = 0; ; attempt++) {
              const started = Date.now()
              const subscriptions = makeSubscriptions(options.wsUrl)
              const error = yield* Effect.flip(Effect.scoped(runSession(rpc, client, subscriptions, sessionOptions, cursor, out)))
              if (Date.now() - started > HEALTHY_CONNECTION_MS) attempt = 0
              yield* Effect.logWarning(`chain stream interrupted: ${error.message}`)
              yield* Queue.offer(out, { _tag: "StreamInterrupted", reason: error.message })
              yield* Effect.sleep(Duration.millis(yield* backoffMillis(attempt, maxBackoffMs)))
            }
          })
          yield* Effect.forkScoped(connectForever)
          return Stream.fromQueue(out)
        })
      )

    return {
      programId: options.programId,
      rpcUrl: options.rpcUrl,
      wsUrl: options.wsUrl,
      genesisHash: Effect.tryPromise({
        try: () => rpc.getGenesisHash().send(),
        catch: (cause) => failure(`getGenesisHash failed: ${String(cause)}`, cause)
      }).pipe(Effect.withSpan("ChainSource.genesisHash")),
      blockTime: (slot: number) =>
        Effect.tryPromise({
          try: async () => Number(await rpc.getBlockTime(BigInt(slot)).send()),
          catch: (cause) => failure(`getBlockTime(${slot}) failed: ${String(cause)}`, cause)
        }).pipe(Effect.withSpan("ChainSource.blockTime")),
      events,
      fetchAccounts: (addresses: ReadonlyArray<string>, minSlot: number) =>
        Effect.tryPromise({
          try: () => fetchAccounts(rpc, addresses, minSlot),
          catch: (cause) => failure(`getMultipleAccounts failed: ${String(cause)}`, cause)
        }).pipe(Effect.withSpan("ChainSource.fetchAccounts", { attributes: { count: addresses.length } }))
    }
  })
