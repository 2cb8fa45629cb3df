import { Context, Effect, Layer } from "effect"
import { Blockhash } from "../../services/Blockhash.ts"
import type { ChainSource } from "../../services/ChainSource.ts"
import { PriorityFees } from "../../services/PriorityFees.ts"
import { TokenBalances } from "../../services/TokenBalances.ts"
import { BlockhashUnavailable } from "../../src/domain/builds/errors.ts"
import { BlockhashLive } from "./BlockhashLive.ts"
import { PriorityFeesLive } from "./PriorityFeesLive.ts"
import { TokenBalancesLive } from "./TokenBalancesLive.ts"

type ChainBuild = Blockhash | PriorityFees | TokenBalances

/**
 * The chain services builds use need the RPC endpoint, which `serve` learns only once ingestion
 * (and possibly the sandbox) has started in the background. The handoff carries them from there to
 * the HTTP side, which answers as if they had no data yet until then.
 */
export class ChainBuildHandoff extends Context.Tag("ChainBuildHandoff")<
  ChainBuildHandoff,
  { current: Context.Context<ChainBuild> | null }
>() {}

export const ChainBuildHandoffLive = Layer.sync(ChainBuildHandoff, () => ({ current: null }))

/** Built next to `ChainSource` (inside ingestion): starts the refreshers and hands them over. */
export const PublishChainBuildServices: Layer.Layer<never, never, ChainSource | ChainBuildHandoff> = Layer.scopedDiscard(
  Effect.gen(function*() {
    const handoff = yield* ChainBuildHandoff
    handoff.current = yield* Layer.build(Layer.mergeAll(BlockhashLive(), PriorityFeesLive(), TokenBalancesLive()))
    yield* Effect.addFinalizer(() => Effect.sync(() => (handoff.current = null)))
  })
)

const STARTING = BlockhashUnavailable.because("the chain connection is starting", 5)

/** The HTTP side's view: no blockhash (503), the fallback fee and unchecked balances until handed over. */
export const ChainBuildServicesFromHandoff: Layer.Layer<ChainBuild, never, ChainBuildHandoff> = Layer.effectContext(
  Effect.map(ChainBuildHandoff, (handoff) =>
    Context.make(
      Blockhash,
      Blockhash.of({
        latest: Effect.suspend(() =>
          handoff.current === null ? Effect.fail(STARTING) : Context.get(handoff.current, Blockhash).latest
        )
      })
    ).pipe(
      Context.add(
        PriorityFees,
        PriorityFees.of({
          microLamportsPerComputeUnit: Effect.suspend(() =>
            handoff.current === null ? Effect.succeed(0n) : Context.get(handoff.current, PriorityFees).microLamportsPerComputeUnit
          )
        })
      ),
      Context.add(
        TokenBalances,
        TokenBalances.of({
          ofAssociatedAccount: (owner, mint) =>
            handoff.current === null
              ? Effect.succeed(null)
              : Context.get(handoff.current, TokenBalances).ofAssociatedAccount(owner, mint)
        })
      )
    ))
)
