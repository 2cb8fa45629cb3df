import { Effect, Either } from "effect"
import { Prices } from "../../../services/Prices.ts"
import { Projection } from "../../../services/Projection.ts"
import type { ProjectionState } from "../../domain/projection/state.ts"
import { Api } from "../Api.ts"
import { implementGroup } from "../handlers.ts"
import { readEither } from "../readProjection.ts"
import { bodyEncoder } from "../bodyEncoder.ts"
import { VersionedBodies } from "../versionedBodies.ts"
import { findVault, stateAsOf } from "./vaultPath.ts"
import { toVaultRecord } from "./toVaultRecord.ts"
import { VaultBody, VaultListBody } from "./VaultsApi.ts"

export const VaultsHandlersLive = implementGroup(
  Api,
  "vaults",
  Effect.gen(function*() {
    const projection = yield* Projection
    const prices = yield* Prices
    const encodeVault = bodyEncoder(VaultBody)
    const encodeList = bodyEncoder(VaultListBody)
    const vaultBodies = new VersionedBodies()
    const listBodies = new VersionedBodies()

    const listBody = (state: ProjectionState) =>
      listBodies.get(state, "", () =>
        encodeList({
          success: true,
          data: [...state.vaults.values()].map((view) => toVaultRecord(view, state.asOf, prices.priceOf)),
          asOf: stateAsOf(state)
        }))

    return {
      list: () => projection.readSync(listBody),
      get: ({ path }) =>
        readEither(projection, (state) =>
          Either.map(findVault(state, path.vaultAddress), (view) =>
            vaultBodies.get(state, view.address, () =>
              encodeVault({ success: true, data: toVaultRecord(view, state.asOf, prices.priceOf), asOf: stateAsOf(state) }))))
    }
  })
)
