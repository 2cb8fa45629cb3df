import { Effect, Either } from "effect"
import { Prices } from "../../../services/Prices.ts"
import { Projection } from "../../../services/Projection.ts"
import type { VaultView } from "../../domain/projection/state.ts"
import { Api } from "../Api.ts"
import { BodiesPerVersion } from "../bodiesPerVersion.ts"
import { implementGroup } from "../handlers.ts"
import { PricesSeen } from "../pricesSeen.ts"
import { readEither } from "../readProjection.ts"
import { findVault, stateAsOf } from "./vaultPath.ts"
import { toVaultRecord } from "./toVaultRecord.ts"
import { VaultBody, VaultListBody } from "./VaultsApi.ts"

export const VaultsHandlersLive = implementGroup(
  Api,
  "vaults",
  Effect.gen(function*() {
    const projection = yield* Projection
    const prices = yield* Prices
    const vaultBodies = new BodiesPerVersion(VaultBody, (state, view: VaultView) => {
      const seen = new PricesSeen(prices.priceOf)
      const data = toVaultRecord(view, state.asOf, seen.priceOf)
      return { success: true as const, data, asOf: stateAsOf(state), priceAsOf: seen.priceAsOf }
    })
    const listBody = new BodiesPerVersion(VaultListBody, (state) => {
      const seen = new PricesSeen(prices.priceOf)
      const data = [...state.vaults.values()].map((view) => toVaultRecord(view, state.asOf, seen.priceOf))
      return { success: true as const, data, asOf: stateAsOf(state), priceAsOf: seen.priceAsOf }
    })

    return {
      list: () => projection.readSync((state) => listBody.get(state, "")),
      get: ({ path }) =>
        readEither(projection, (state) => {
          const found = findVault(state, path.vaultAddress)
          return Either.isLeft(found) ? Either.left(found.left) : Either.right(vaultBodies.get(state, found.right.address, found.right))
        })
    }
  })
)
