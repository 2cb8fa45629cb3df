import type { VaultView } from "./projection/state.ts"
import { type VaultValuation, vaultValuation } from "../ntbundle/math.ts"

/**
 * The vault's valuation from its Bundle and OracleData accounts, or null while the oracle account
 * has not been seen (equity would be understated: no zero is assumed for the external part).
 */
export const valuationOf = (view: VaultView): VaultValuation | null =>
  view.oracle === null ? null : vaultValuation({ bundle: view.bundle, oracle: view.oracle })
