import { Effect } from "effect"
import { Prices } from "../../../services/Prices.ts"
import { Projection } from "../../../services/Projection.ts"
import { Api } from "../Api.ts"
import { bodyEncoder } from "../bodyEncoder.ts"
import { implementGroup } from "../handlers.ts"
import { VersionedBodies } from "../versionedBodies.ts"
import { stateAsOf } from "../vaults/vaultPath.ts"
import { PlatformStatsBody } from "./PlatformApi.ts"
import { toPlatformStats } from "./platformStats.ts"

export const PlatformHandlersLive = implementGroup(
  Api,
  "platform",
  Effect.gen(function*() {
    const projection = yield* Projection
    const prices = yield* Prices
    const encode = bodyEncoder(PlatformStatsBody)
    // O(positions) to build: built at most once per projection version, on demand.
    const bodies = new VersionedBodies()
    return {
      stats: () =>
        projection.readSync((state) =>
          bodies.get(state, "", () => encode({ success: true, data: toPlatformStats(state, prices.priceOf), asOf: stateAsOf(state) })))
    }
  })
)
