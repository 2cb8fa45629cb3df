import { Clock, Duration, Effect, Layer, Ref } from "effect"
import { Blockhash, type LatestBlockhash } from "../../services/Blockhash.ts"
import { SolanaRpc } from "../../services/SolanaRpc.ts"
import { BlockhashUnavailable } from "../../src/domain/builds/errors.ts"
import { makeFailureWarnings } from "./failureWarnings.ts"

export interface BlockhashOptions {
  /** How often `getLatestBlockhash` is asked (default 1.5 s). */
  readonly refreshInterval?: Duration.DurationInput
  /**
   * A cached blockhash older than this is not handed out (default 20 s). A blockhash stays valid
   * for about 60 s, so a build made at the bound still leaves the wallet ~40 s to submit.
   */
  readonly maxAge?: Duration.DurationInput
  /** Default "confirmed": the newest blockhash that is very unlikely to be dropped. */
  readonly commitment?: "confirmed" | "finalized"
  readonly requestTimeout?: Duration.DurationInput
}

interface Cached {
  readonly value: LatestBlockhash
  readonly fetchedAtMs: number
}

const NONE_YET = BlockhashUnavailable.because("none fetched yet")
const STARTING = BlockhashUnavailable.because("the chain connection is starting", 5)

/** Refreshes the blockhash over SolanaRpc in a background fiber. */
export const BlockhashLive = (options: BlockhashOptions = {}): Layer.Layer<Blockhash, never, SolanaRpc> =>
  Layer.scoped(
    Blockhash,
    Effect.gen(function*() {
      const rpc = yield* SolanaRpc
      const refreshInterval = Duration.decode(options.refreshInterval ?? Duration.millis(1_500))
      const maxAgeMs = Duration.toMillis(Duration.decode(options.maxAge ?? Duration.seconds(20)))
      const commitment = options.commitment ?? "confirmed"
      // The latest blockhash, or why there is none
      const cache = yield* Ref.make<Cached | BlockhashUnavailable>(NONE_YET)

      const warnings = makeFailureWarnings("getLatestBlockhash")
      const refresh = rpc.call("getLatestBlockhash", [{ commitment }]).pipe(
        Effect.timeout(options.requestTimeout ?? Duration.seconds(5)),
        Effect.flatMap((answer) =>
          Effect.flatMap(Clock.currentTimeMillis, (now) =>
            Ref.set(cache, {
              value: { blockhash: answer.value.blockhash, lastValidBlockHeight: answer.value.lastValidBlockHeight, slot: answer.context.slot },
              fetchedAtMs: now
            })
          ).pipe(Effect.zipRight(warnings.succeeded))
        ),
        Effect.catchAll((error) =>
          error._tag === "SolanaRpcError" && error.reason === "starting"
            ? Ref.set(cache, STARTING)
            : warnings.failed(error.message)
        ),
        Effect.withSpan("Blockhash.refresh")
      )
      yield* Effect.forkScoped(Effect.forever(Effect.zipRight(refresh, Effect.sleep(refreshInterval))))

      const latest = Effect.gen(function*() {
        const cached = yield* Ref.get(cache)
        if (cached instanceof BlockhashUnavailable) return yield* Effect.fail(cached)
        const ageMs = (yield* Clock.currentTimeMillis) - cached.fetchedAtMs
        if (ageMs > maxAgeMs) {
          return yield* Effect.fail(BlockhashUnavailable.because(`the last one is ${Math.round(ageMs / 1000)} s old`))
        }
        return cached.value
      }).pipe(Effect.withSpan("Blockhash.latest"))

      return Blockhash.of({ latest })
    })
  )
