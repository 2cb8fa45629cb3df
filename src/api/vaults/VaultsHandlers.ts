import { Effect, Either } from "effect"
import { Prices } from "../../../services/Prices.ts"
import { Projection } from "../../../services/Projection.ts"
import type { VaultView } from "../../domain/projection/state.ts"
import { Api } from "../Api.ts"
import { BodiesPerVersion } from "../bodiesPerVersion.ts"
import { implementGroup } from "../handlers.ts"
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
    const vaultBodies = new BodiesPerVersion(VaultBody, (state, view: VaultView) => ({
      success: true as const,
      data: toVaultRecord(view, state.asOf, prices.priceOf),
      asOf: stateAsOf(state)
    }))
    const listBody = new BodiesPerVersion(VaultListBody, (state) => ({
      success: true as const,
      data: [...state.vaults.values()].map((view) => toVaultRecord(view, state.asOf, prices.priceOf)),
      asOf: stateAsOf(state)
    }))

    return {
      list: () => projection.readSync((state) => listBody.get(state, "")),
      get: ({ path }) =>
        readEither(projection, (state) =>
          Either.map(findVault(state, path.vaultAddress), (view) => vaultBodies.get(state, view.address, view)))
    }
  })
)
