import { address } from "@solana/kit"
import { Duration, Effect, Layer, Queue, Random, Stream } from "effect"
import { ChainSource, type ChainEvent, type ChainSourceError, type ResumePoint } from "../../services/ChainSource.ts"
import { SolanaRpc } from "../../services/SolanaRpc.ts"
import { fetchAccounts } from "./accounts.ts"
import { type Cursor, runSession, type SessionOptions } from "./session.ts"
import { RecentSignatures } from "./sessionItems.ts"
import { SolanaRpcEndpoint } from "./SolanaRpcLive.ts"
import { makeSubscriptions } from "./subscriptions.ts"
import { chainFailure } from "./transactions.ts"

export interface ChainSourceOptions {
  /** The node's JSON-RPC endpoint: SolanaRpc is pointed at it for as long as the chain source lives. */
  readonly rpcUrl: string
  /** Its PubSub endpoint, for the subscriptions. */
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

/** Full-jitter exponential backoff: 250 ms doubling up to the bound; reset after a healthy connection. */
const backoffMillis = (attempt: number, maxMs: number) =>
  Random.nextIntBetween(0, Math.min(maxMs, 250 * 2 ** Math.min(attempt, 16)) + 1)

const HEALTHY_CONNECTION_MS = 30_000

/** Scheme, host and port: a provider's key in a URL's path or query stays out of the status. */
const originOf = (url: string): string => {
  try {
    return new URL(url).origin
  } catch {
    return ""
  }
}

/**
 * The chain stream over PubSub at `wsUrl`, its HTTP calls over SolanaRpc, which it points at
 * `rpcUrl` for as long as it lives: the one place the endpoints enter, once the chain is up.
 */
export const ChainSourceLive = (options: ChainSourceOptions): Layer.Layer<ChainSource, never, SolanaRpc | SolanaRpcEndpoint> =>
  Layer.scoped(ChainSource, Effect.gen(function*() {
    yield* (yield* SolanaRpcEndpoint).bind(options.rpcUrl)
    const rpc = yield* SolanaRpc
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
              const error = yield* Effect.flip(Effect.scoped(runSession(rpc, subscriptions, sessionOptions, cursor, out)))
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

    return ChainSource.of({
      programId: options.programId,
      origin: { rpcUrl: originOf(options.rpcUrl), wsUrl: originOf(options.wsUrl) },
      genesisHash: rpc.call("getGenesisHash", []).pipe(
        Effect.mapError(chainFailure("getGenesisHash")),
        Effect.withSpan("ChainSource.genesisHash")
      ),
      blockTime: (slot: number) =>
        rpc.call("getBlockTime", [slot]).pipe(
          Effect.mapError(chainFailure(`getBlockTime(${slot})`)),
          Effect.withSpan("ChainSource.blockTime")
        ),
      events,
      fetchAccounts: (addresses: ReadonlyArray<string>, minSlot: number) =>
        fetchAccounts(rpc, addresses, minSlot).pipe(
          Effect.withSpan("ChainSource.fetchAccounts", { attributes: { count: addresses.length } })
        )
    })
  }))
