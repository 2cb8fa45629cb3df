import { Effect, Either, Schema } from "effect"
import { Projection } from "../../../services/Projection.ts"
import { VaultHistory } from "../../../services/VaultHistory.ts"
import { catalogEntryById, type CatalogEntry } from "../../domain/catalog.ts"
import type { ProjectionState, VaultView } from "../../domain/projection/state.ts"
import { registryVaults } from "../../ntbundle/registry.ts"
import { Api } from "../Api.ts"
import { BodiesPerVersion } from "../bodiesPerVersion.ts"
import { NotFound } from "../errors.ts"
import { implementGroup } from "../handlers.ts"
import { requireStoredThrough } from "../history/historyPending.ts"
import { lastCompletedDay } from "../history/utcDate.ts"
import { readEither } from "../readProjection.ts"
import { toLegacyMetrics, toLegacySnapshots } from "./legacyHistory.ts"
import { toVaultConfig, VaultConfig } from "./vaultConfig.ts"

/** Enough daily rows for any real vault's whole history. */
const ALL_HISTORY = 100_000

/** Catalog vaults (both registries) whose Bundle the projection holds, by ascending id. */
const legacyVaults = (state: ProjectionState): ReadonlyArray<readonly [CatalogEntry, VaultView]> =>
  [...registryVaults("mainnet"), ...registryVaults("devnet")].flatMap((registry) => {
    const view = state.vaults.get(registry.address)
    const entry = view === undefined ? null : catalogEntryById(registry.id)
    return view === undefined || entry === null ? [] : [[entry, view] as const]
  })

interface LegacyVault {
  readonly entry: CatalogEntry
  readonly view: VaultView
}

/** The catalog entry and projected vault of a legacy id, or 404 when no ntbundle vault has it. */
const legacyVault = (state: ProjectionState, id: number): Either.Either<LegacyVault, NotFound> => {
  const entry = catalogEntryById(id)
  const view = entry === null ? undefined : state.vaults.get(entry.registry.address)
  return entry === null || view === undefined
    ? Either.left(new NotFound({ code: "VAULT_NOT_FOUND", message: `no ntbundle vault has the legacy id ${id}` }))
    : Either.right({ entry, view })
}

export const LegacyHandlersLive = implementGroup(
  Api,
  "legacy",
  Effect.gen(function*() {
    const projection = yield* Projection
    const history = yield* VaultHistory
    const storedThrough = yield* requireStoredThrough
    const configs = new BodiesPerVersion(VaultConfig, (state, { entry, view }: LegacyVault) => toVaultConfig(entry, view, state.programId))
    const list = new BodiesPerVersion(
      Schema.Array(VaultConfig),
      (state) => legacyVaults(state).map(([entry, view]) => toVaultConfig(entry, view, state.programId))
    )

    /** The vault's whole daily history through the last completed day (503 until the rollup stored it). */
    const historyOf = (vaultId: number) =>
      Effect.gen(function*() {
        const { entry, view, blockTime } = yield* readEither(projection, (state) =>
          Either.map(legacyVault(state, vaultId), (found) => ({ ...found, blockTime: state.asOf?.blockTime ?? null })))
        const throughDate = lastCompletedDay(blockTime)
        yield* storedThrough(throughDate)
        const rows = yield* history
          .dailyRows({ vault: view.address, from: null, to: throughDate, after: null, limit: ALL_HISTORY })
          .pipe(Effect.orDie)
        return { entry, view, rows, throughDate }
      })

    return {
      vaults: () => projection.readSync((state) => list.get(state, "")),
      config: ({ path }) =>
        readEither(projection, (state) =>
          Either.map(legacyVault(state, path.vaultId), (found) => configs.get(state, String(path.vaultId), found))),
      metrics: ({ path }) =>
        Effect.map(historyOf(path.vaultId), ({ entry, view, rows, throughDate }) =>
          toLegacyMetrics(entry.registry.id, entry.registry.displayName, view, rows, throughDate)),
      snapshots: ({ path }) =>
        Effect.map(historyOf(path.vaultId), ({ view, rows }) => toLegacySnapshots(rows, view.bundle.assetDecimals))
    }
  })
)
