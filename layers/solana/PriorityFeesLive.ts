import { Clock, Duration, Effect, Layer, Ref } from "effect"
import { PriorityFees } from "../../services/PriorityFees.ts"
import { SolanaRpc } from "../../services/SolanaRpc.ts"
import { makeFailureWarnings } from "./failureWarnings.ts"

export interface PriorityFeesOptions {
  /** Which percentile of the recent per-slot fees to charge (default 50, the median). */
  readonly percentile?: number
  /** Answered with no fresh sample (default 0: no SetComputeUnitPrice instruction). */
  readonly fallbackMicroLamports?: bigint
  /** Never charge more than this per compute unit (default 5,000,000), whatever a spike says. */
  readonly maxMicroLamports?: bigint
  readonly refreshInterval?: Duration.DurationInput
  /** Samples older than this are ignored (default 60 s). */
  readonly maxAge?: Duration.DurationInput
  readonly requestTimeout?: Duration.DurationInput
}

/** Nearest-rank percentile of the samples; null when there are none. */
export const feePercentile = (samples: ReadonlyArray<bigint>, percentile: number): bigint | null => {
  if (samples.length === 0) return null
  const sorted = [...samples].sort((a, b) => (a < b ? -1 : a > b ? 1 : 0))
  const clamped = Math.min(100, Math.max(0, percentile))
  const rank = Math.max(1, Math.ceil((clamped / 100) * sorted.length))
  return sorted[rank - 1]!
}

interface Sample {
  readonly microLamports: bigint
  readonly fetchedAtMs: number
}

/** Samples `getRecentPrioritizationFees` (cluster-wide, last ~150 slots) in a background fiber. */
export const PriorityFeesLive = (options: PriorityFeesOptions = {}): Layer.Layer<PriorityFees, never, SolanaRpc> =>
  Layer.scoped(
    PriorityFees,
    Effect.gen(function*() {
      const rpc = yield* SolanaRpc
      const percentile = options.percentile ?? 50
      const fallback = options.fallbackMicroLamports ?? 0n
      const cap = options.maxMicroLamports ?? 5_000_000n
      const maxAgeMs = Duration.toMillis(Duration.decode(options.maxAge ?? Duration.seconds(60)))
      const sample = yield* Ref.make<Sample | null>(null)

      const warnings = makeFailureWarnings("getRecentPrioritizationFees")
      const refresh = rpc.call("getRecentPrioritizationFees", []).pipe(
        Effect.timeout(options.requestTimeout ?? Duration.seconds(5)),
        Effect.flatMap((fees) => {
          const value = feePercentile(fees.map((fee) => BigInt(fee.prioritizationFee)), percentile)
          return value === null
            ? warnings.succeeded
            : Effect.flatMap(Clock.currentTimeMillis, (now) =>
                Ref.set(sample, { microLamports: value > cap ? cap : value, fetchedAtMs: now })
              ).pipe(Effect.zipRight(warnings.succeeded))
        }),
        // Until the chain is up the fallback is charged; no news worth a warning.
        Effect.catchAll((error) =>
          error._tag === "SolanaRpcError" && error.reason === "starting"
            ? Ref.set(sample, null)
            : warnings.failed(error.message)
        ),
        Effect.withSpan("PriorityFees.refresh")
      )
      yield* Effect.forkScoped(
        Effect.forever(Effect.zipRight(refresh, Effect.sleep(options.refreshInterval ?? Duration.seconds(10))))
      )

      const microLamportsPerComputeUnit = Effect.gen(function*() {
        const current = yield* Ref.get(sample)
        if (current === null) return fallback
        const ageMs = (yield* Clock.currentTimeMillis) - current.fetchedAtMs
        return ageMs > maxAgeMs ? fallback : current.microLamports
      }).pipe(Effect.withSpan("PriorityFees.current"))

      return PriorityFees.of({ microLamportsPerComputeUnit })
    })
  )
