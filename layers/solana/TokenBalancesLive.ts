import { Duration, Effect, Layer } from "effect"
import { SolanaRpc } from "../../services/SolanaRpc.ts"
import { TokenBalances } from "../../services/TokenBalances.ts"
import { findAssociatedTokenAddress } from "../../src/ntbundle/pdas.ts"

/** A node answers a missing token account with an invalid-param error, not a null value. */
const MISSING_ACCOUNT = /could not find account/i

/**
 * `getTokenAccountBalance` of the owner's associated token account, with a short timeout: a build
 * waits on it, so a slow, rate-limited or failing node (or a chain still starting) skips the check
 * (null) rather than the build.
 */
export const TokenBalancesLive = (options: { readonly timeout?: Duration.DurationInput } = {}): Layer.Layer<TokenBalances, never, SolanaRpc> =>
  Layer.effect(
    TokenBalances,
    Effect.map(SolanaRpc, (rpc) => {
      const timeout = options.timeout ?? Duration.seconds(2)
      return TokenBalances.of({
        ofAssociatedAccount: (owner, mint) => {
          const [account] = findAssociatedTokenAddress(owner, mint)
          return rpc.call("getTokenAccountBalance", [account, { commitment: "confirmed" }], { whenRateLimited: "fail" }).pipe(
            Effect.flatMap((answer) => Effect.try((): bigint | null => BigInt(answer.value.amount))),
            Effect.catchIf(
              (error) => error._tag === "SolanaRpcError" && error.reason === "answer" && MISSING_ACCOUNT.test(error.message),
              () => Effect.succeed(0n)
            ),
            Effect.timeout(timeout),
            Effect.catchAll((error) =>
              error._tag === "SolanaRpcError" && error.reason === "starting"
                ? Effect.succeed(null)
                : Effect.as(Effect.logWarning(`getTokenAccountBalance failed, balance not checked: ${error.message}`), null)
            ),
            Effect.withSpan("TokenBalances.ofAssociatedAccount")
          )
        }
      })
    })
  )
