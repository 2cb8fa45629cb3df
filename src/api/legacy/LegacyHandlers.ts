import { Effect, Either, Schema } from "effect"
import { Projection } from "../../../services/Projection.ts"
import { catalogEntryById, type CatalogEntry } from "../../domain/catalog.ts"
import type { ProjectionState, VaultView } from "../../domain/projection/state.ts"
import { registryVaults } from "../../ntbundle/registry.ts"
import { Api } from "../Api.ts"
import { bodyEncoder } from "../bodyEncoder.ts"
import { NotFound } from "../errors.ts"
import { implementGroup } from "../handlers.ts"
import { readEither } from "../readProjection.ts"
import { VersionedBodies } from "../versionedBodies.ts"
import { toVaultConfig, VaultConfig } from "./vaultConfig.ts"

/** Catalog vaults (both registries) whose Bundle the projection holds, by ascending id. */
const legacyVaults = (state: ProjectionState): ReadonlyArray<readonly [CatalogEntry, VaultView]> =>
  [...registryVaults("mainnet"), ...registryVaults("devnet")].flatMap((registry) => {
    const view = state.vaults.get(registry.address)
    const entry = view === undefined ? null : catalogEntryById(registry.id)
    return view === undefined || entry === null ? [] : [[entry, view] as const]
  })

export const LegacyHandlersLive = implementGroup(
  Api,
  "legacy",
  Effect.gen(function*() {
    const projection = yield* Projection
    const encodeConfig = bodyEncoder(VaultConfig)
    const encodeList = bodyEncoder(Schema.Array(VaultConfig))
    const configs = new VersionedBodies()
    const lists = new VersionedBodies()
    return {
      vaults: () =>
        projection.readSync((state) =>
          lists.get(state, "", () => encodeList(legacyVaults(state).map(([entry, view]) => toVaultConfig(entry, view, state.programId))))),
      config: ({ path }) =>
        readEither(projection, (state) => {
          const entry = catalogEntryById(path.vaultId)
          const view = entry === null ? undefined : state.vaults.get(entry.registry.address)
          return entry === null || view === undefined
            ? Either.left(new NotFound({ code: "VAULT_NOT_FOUND", message: `no ntbundle vault has the legacy id ${path.vaultId}` }))
            : Either.right(configs.get(state, String(path.vaultId), () => encodeConfig(toVaultConfig(entry, view, state.programId))))
        })
    }
  })
)
