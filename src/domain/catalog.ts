import { registryVaultByAddress, registryVaultById, type RegistryVault } from "../ntbundle/registry.ts"
import catalogFile from "./catalog.json" with { type: "json" }

/** Hints the public catalog attaches to a vault (facts §10.3); the chain knows none of them. */
export interface CatalogFlags {
  readonly visible: boolean
  readonly private: boolean
  readonly enabled: boolean
  readonly deprecated: boolean
}

/** A vault as the catalog knows it: its registry row (legacy id, names, category) and its flags. */
export interface CatalogEntry {
  readonly registry: RegistryVault
  readonly flags: CatalogFlags
}

/** A vault of the program that the public catalog does not list: served, but not advertised. */
export const UNLISTED_FLAGS: CatalogFlags = { visible: false, private: false, enabled: true, deprecated: false }

const flagsById = new Map<number, CatalogFlags>(
  catalogFile.vaults.map(({ id, ...flags }) => [id, flags])
)

// Legacy ids are disjoint between the mainnet and devnet registries (devnet ids start at 100000002),
// and so are addresses, so one lookup serves every cluster (the sandbox hosts mainnet addresses).
const registryByAddress = (vaultAddress: string): RegistryVault | undefined =>
  registryVaultByAddress("mainnet", vaultAddress) ?? registryVaultByAddress("devnet", vaultAddress)

const entryOf = (registry: RegistryVault | undefined): CatalogEntry | null =>
  registry === undefined ? null : { registry, flags: flagsById.get(registry.id) ?? UNLISTED_FLAGS }

export const catalogEntryByAddress = (vaultAddress: string): CatalogEntry | null => entryOf(registryByAddress(vaultAddress))

/** Resolves a legacy (v1) numeric vault id to its catalog entry (and so its v2 address). */
export const catalogEntryById = (id: number): CatalogEntry | null =>
  entryOf(registryVaultById("mainnet", id) ?? registryVaultById("devnet", id))
