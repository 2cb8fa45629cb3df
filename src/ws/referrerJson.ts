import type { UsdPrice } from "../domain/usdPrice.ts"
import { toReferrerVaultSummary } from "../api/referrers/ReferrerSummary.ts"
import { assetOf } from "../api/vaults/toVaultRecord.ts"
import type { Cohort } from "../domain/projection/indexes.ts"
import type { ProjectionState } from "../domain/projection/state.ts"
import { type ReferrerVault, referrerVaults } from "../domain/reporting/referrerVaults.ts"

/** One (builder, vault) summary's JSON and everything it was computed from. */
interface CachedSummary {
  readonly bundle: unknown
  readonly oracle: unknown
  readonly registration: string | null
  readonly account: unknown
  readonly cohort: Cohort | null
  readonly users: number
  readonly shares: bigint
  readonly usd: number | null
  readonly json: string
}

/** Builders whose summaries are kept; past it the cache starts over (it only saves work). */
const MAX_BUILDERS = 10_000

/**
 * `referrer:` topic data as JSON, equal to `JSON.stringify` of the REST summary's data. A builder's
 * summary has one group per vault, and a change moves one vault's group at a time: each group's
 * JSON is kept and rebuilt only when something it is computed from changed (the vault's Bundle or
 * OracleData, the builder's ReferrerAccount there, its cohort's size or shares, the asset's price).
 * The decoded accounts are never mutated (each update decodes new ones), so identity tells them apart.
 */
export class ReferrerJsonCache {
  readonly #byBuilder = new Map<string, Map<string, CachedSummary>>()

  json(state: ProjectionState, referrer: string, priceOf: (mint: string) => UsdPrice | null): string {
    let groups = this.#byBuilder.get(referrer)
    if (groups === undefined) {
      if (this.#byBuilder.size >= MAX_BUILDERS) this.#byBuilder.clear()
      this.#byBuilder.set(referrer, groups = new Map())
    }
    const vaults = referrerVaults(state, referrer)
    const parts = new Array<string>(vaults.length)
    for (let i = 0; i < vaults.length; i++) parts[i] = this.#group(groups, vaults[i]!, priceOf)
    // Groups of vaults the builder left are dropped with the map now and then, not tracked one by one.
    if (groups.size > vaults.length * 2 + 8) groups.clear()
    // Joined, not concatenated: one flat string, where `+=` made a chain of pieces that is copied
    // flat again when it is compared and written out (tens of kilobytes for a builder in many vaults).
    return `{"referrer":${JSON.stringify(referrer)},"vaults":[${parts.join(",")}]}`
  }

  #group(groups: Map<string, CachedSummary>, vault: ReferrerVault, priceOf: (mint: string) => UsdPrice | null): string {
    const { view, registration, cohort } = vault
    const usd = priceOf(assetOf(view).mint)?.usd ?? null
    const account = registration?.entry.account ?? null
    const users = cohort?.positions.size ?? 0
    const shares = cohort?.shares ?? 0n
    const cached = groups.get(view.address)
    if (
      cached !== undefined && cached.bundle === view.bundle && cached.oracle === view.oracle &&
      cached.registration === (registration?.address ?? null) && cached.account === account &&
      cached.cohort === cohort && cached.users === users && cached.shares === shares && cached.usd === usd
    ) return cached.json
    // Built with exactly the schema's keys in its order: its projection would copy it unchanged (the
    // tests compare with the encoded REST value).
    const json = JSON.stringify(toReferrerVaultSummary(vault, priceOf))
    groups.set(view.address, {
      bundle: view.bundle,
      oracle: view.oracle,
      registration: registration?.address ?? null,
      account,
      cohort,
      users,
      shares,
      usd,
      json
    })
    return json
  }
}
