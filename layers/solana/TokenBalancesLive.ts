import { Duration, Effect, Layer } from "effect"
import { ChainSource } from "../../services/ChainSource.ts"
import { TokenBalances } from "../../services/TokenBalances.ts"
import { findAssociatedTokenAddress } from "../../src/ntbundle/pdas.ts"

interface BalanceAnswer {
  readonly result?: { readonly value: { readonly amount: string } }
  readonly error?: { readonly message: string }
}

/** A node answers a missing token account with an invalid-param error, not a null value. */
const MISSING_ACCOUNT = /could not find account/i

/**
 * `getTokenAccountBalance` of the owner's associated token account, with a short timeout: a build
 * waits on it, so a slow or failing node skips the check (null) rather than the build.
 */
export const TokenBalancesLive = (options: { readonly timeout?: Duration.DurationInput } = {}) =>
  Layer.effect(
    TokenBalances,
    Effect.map(ChainSource, (source) => {
      const timeout = options.timeout ?? Duration.seconds(2)
      return TokenBalances.of({
        ofAssociatedAccount: (owner, mint) => {
          const [account] = findAssociatedTokenAddress(owner, mint)
          return Effect.tryPromise(async (signal) => {
            const response = await fetch(source.rpcUrl, {
              method: "POST",
              signal,
              headers: { "content-type": "application/json" },
              body: JSON.stringify({ jsonrpc: "2.0", id: 1, method: "getTokenAccountBalance", params: [account, { commitment: "confirmed" }] })
            })
            const answer = (await response.json()) as BalanceAnswer
            if (answer.result !== undefined) return BigInt(answer.result.value.amount)
            if (answer.error !== undefined && MISSING_ACCOUNT.test(answer.error.message)) return 0n
            throw new Error(answer.error?.message ?? `HTTP ${response.status}`)
          }).pipe(
            Effect.timeout(timeout),
            Effect.catchAll((error) =>
              Effect.as(Effect.logWarning(`getTokenAccountBalance failed, balance not checked: ${String(error)}`), null)
            ),
            Effect.withSpan("TokenBalances.ofAssociatedAccount")
          )
        }
      })
    })
  )
