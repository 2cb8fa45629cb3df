import { Effect } from "effect"
import { Prices } from "../../../services/Prices.ts"
import { Projection } from "../../../services/Projection.ts"
import { VaultHistory } from "../../../services/VaultHistory.ts"
import { Api } from "../Api.ts"
import { BodiesPerVersion } from "../bodiesPerVersion.ts"
import { implementGroup } from "../handlers.ts"
import { stateAsOf } from "../vaults/vaultPath.ts"
import { PlatformStatsBody } from "./PlatformApi.ts"
import { toPlatformStats } from "./platformStats.ts"

/** How long the event log's deposit totals are reused (one query per window, not per request). */
const DEPOSIT_TOTALS_TTL_MS = 10_000

export const PlatformHandlersLive = implementGroup(
  Api,
  "platform",
  Effect.gen(function*() {
    const projection = yield* Projection
    const prices = yield* Prices
    const history = yield* VaultHistory
    // O(positions) to build: at most once per projection version and deposit-totals refresh.
    const bodies = new BodiesPerVersion(PlatformStatsBody, (state, totals: ReadonlyMap<string, bigint>) => ({
      success: true as const,
      data: toPlatformStats(state, prices.priceOf, totals),
      asOf: stateAsOf(state)
    }))
    let cached: { readonly at: number; readonly totals: ReadonlyMap<string, bigint> } | null = null
    const depositTotals = Effect.suspend(() =>
      cached !== null && Date.now() - cached.at < DEPOSIT_TOTALS_TTL_MS
        ? Effect.succeed(cached.totals)
        : Effect.tap(history.depositTotals, (totals) => Effect.sync(() => (cached = { at: Date.now(), totals })))
    ).pipe(Effect.orDie)
    return {
      stats: () =>
        Effect.flatMap(depositTotals, (totals) =>
          projection.read((state) => bodies.get(state, String(cached?.at ?? 0), totals)))
    }
  })
)
