import type { Address } from "@solana/kit"
import { Effect, Layer } from "effect"
import { RateLimiterLive } from "../../../layers/memory/RateLimiterLive.ts"
import { Blockhash } from "../../../services/Blockhash.ts"
import { BuilderCodes } from "../../../services/BuilderCodes.ts"
import { PriorityFees } from "../../../services/PriorityFees.ts"
import { TokenBalances } from "../../../services/TokenBalances.ts"

/** A fixed blockhash (base58 of 32 bytes) for builds that never reach a chain. */
export const STAND_IN_BLOCKHASH = { blockhash: "EtWTRABZaYq6iMfeYKouRu166VU2xqa1wcaWoxPkrZBG", lastValidBlockHeight: 1_000, slot: 900 }

/** In-memory codes, case-insensitive like the table. */
export const makeMemoryCodes = () => {
  const codes = new Map<string, { code: string; referrer: Address; enabled: boolean }>()
  return BuilderCodes.of({
    resolve: (code) =>
      Effect.sync(() => {
        const entry = codes.get(code.toLowerCase())
        return entry?.enabled === true ? { code: entry.code, referrer: entry.referrer } : null
      }),
    set: (code, referrer) => Effect.sync(() => void codes.set(code.toLowerCase(), { code, referrer, enabled: true })),
    disable: (code) =>
      Effect.sync(() => {
        const entry = codes.get(code.toLowerCase())
        if (entry === undefined) return false
        codes.set(code.toLowerCase(), { ...entry, enabled: false })
        return true
      })
  })
}

/** What the builders need besides the projection, without chain or database: for HTTP tests of other routes. */
export const BuildStandIns = Layer.mergeAll(
  Layer.succeed(Blockhash, Blockhash.of({ latest: Effect.succeed(STAND_IN_BLOCKHASH) })),
  Layer.succeed(PriorityFees, PriorityFees.of({ microLamportsPerComputeUnit: Effect.succeed(0n) })),
  Layer.succeed(TokenBalances, TokenBalances.of({ ofAssociatedAccount: () => Effect.succeed(null) })),
  Layer.sync(BuilderCodes, makeMemoryCodes),
  RateLimiterLive
)
