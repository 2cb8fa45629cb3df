import type { Cohort } from "../projection/indexes.ts"
import type { ProjectionState, ReferrerEntry, VaultView } from "../projection/state.ts"

/** A builder's standing in one vault: its ReferrerAccount (if registered) and its bound cohort (if any). */
export interface BuilderVault {
  readonly view: VaultView
  /** The ReferrerAccount address and entry; null when the builder is not registered in the vault. */
  readonly registration: { readonly address: string; readonly entry: ReferrerEntry } | null
  readonly cohort: Cohort | null
}

/**
 * Every vault where the builder is registered or has bound users, sorted by vault address. Reads the
 * registration and cohort indexes only: O(vaults of the builder), never a scan of users.
 */
export const builderVaults = (state: ProjectionState, wallet: string): ReadonlyArray<BuilderVault> => {
  const registered = state.registrations.entries(wallet)
  const cohorts = state.cohorts.entries(wallet)
  const vaults = new Set<string>([...registered.keys(), ...cohorts.keys()])
  const found: Array<BuilderVault> = []
  for (const vault of [...vaults].sort()) {
    const view = state.vaults.get(vault)
    if (view === undefined) continue
    const address = registered.get(vault)
    const entry = address === undefined ? undefined : state.referrers.get(address)
    found.push({
      view,
      registration: address === undefined || entry === undefined ? null : { address, entry },
      cohort: cohorts.get(vault) ?? null
    })
  }
  return found
}
