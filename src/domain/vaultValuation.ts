import type { VaultView } from "./projection/state.ts"
import { type VaultValuation, vaultValuation } from "../ntbundle/math.ts"

/**
 * The vault's valuation from its Bundle and OracleData accounts, or null while the oracle account
 * has not been seen (equity would be understated: no zero is assumed for the external part).
 */
export const valuationOf = (view: VaultView): VaultValuation | null => {
  if (view.oracle === null) return null
  const cached = valuations.get(view.bundle)
  if (cached !== undefined && cached.oracle === view.oracle) return cached.valuation
  const valuation = vaultValuation({ bundle: view.bundle, oracle: view.oracle })
  valuations.set(view.bundle, { oracle: view.oracle, valuation })
  return valuation
}

// Per decoded Bundle and OracleData (never mutated: each update decodes new ones), for the many
// positions and builders of a vault valued after each of its changes.
const valuations = new WeakMap<VaultView["bundle"], { readonly oracle: object; readonly valuation: VaultValuation }>()
