import { Effect } from "effect"
import { Prices } from "../../../services/Prices.ts"
import { Projection } from "../../../services/Projection.ts"
import { type CapitalFlowTotals, VaultHistory } from "../../../services/VaultHistory.ts"
import { Api } from "../Api.ts"
import { BodiesPerVersion } from "../bodiesPerVersion.ts"
import { implementGroup } from "../handlers.ts"
import { PricesSeen } from "../pricesSeen.ts"
import { stateAsOf } from "../vaults/vaultPath.ts"
import { PlatformStatsBody } from "./PlatformApi.ts"
import { toPlatformStats } from "./platformStats.ts"

/** How long the event log's capital flows are reused (one query per window, not per request). */
const FLOWS_TTL_MS = 10_000

export const PlatformHandlersLive = implementGroup(
  Api,
  "platform",
  Effect.gen(function*() {
    const projection = yield* Projection
    const prices = yield* Prices
    const history = yield* VaultHistory
    // O(vaults) to build: at most once per projection version and capital-flows refresh.
    const bodies = new BodiesPerVersion(PlatformStatsBody, (state, flows: CapitalFlowTotals) => {
      const seen = new PricesSeen(prices.priceOf)
      const data = toPlatformStats(state, seen.priceOf, flows)
      return { success: true as const, data, asOf: stateAsOf(state), priceAsOf: seen.priceAsOf }
    })
    let cached: { readonly at: number; readonly flows: CapitalFlowTotals } | null = null
    const capitalFlows = Effect.suspend(() =>
      cached !== null && Date.now() - cached.at < FLOWS_TTL_MS
        ? Effect.succeed(cached.flows)
        : Effect.tap(history.capitalFlows, (flows) => Effect.sync(() => (cached = { at: Date.now(), flows })))
    ).pipe(Effect.orDie)
    return {
      stats: () =>
        Effect.flatMap(capitalFlows, (flows) =>
          projection.read((state) => bodies.get(state, String(cached?.at ?? 0), flows)))
    }
  })
)
