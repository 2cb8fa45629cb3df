import type { Cohort } from "../projection/indexes.ts"
import type { ProjectionState, ReferrerEntry, VaultView } from "../projection/state.ts"

/** A referrer's standing in one vault: its ReferrerAccount (if registered) and its cohort (if any). */
export interface ReferrerVault {
  readonly view: VaultView
  /** The ReferrerAccount address and entry; null when the referrer is not registered in the vault. */
  readonly registration: { readonly address: string; readonly entry: ReferrerEntry } | null
  readonly cohort: Cohort | null
}

/**
 * Every vault where the referrer is registered or has bound users, sorted by vault address. Reads the
 * registration and cohort indexes only: O(vaults of the referrer), never a scan of users.
 */
export const referrerVaults = (state: ProjectionState, referrer: string): ReadonlyArray<ReferrerVault> => {
  const registered = state.registrations.entries(referrer)
  const cohorts = state.cohorts.entries(referrer)
  const vaults = new Set<string>([...registered.keys(), ...cohorts.keys()])
  const found: Array<ReferrerVault> = []
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
