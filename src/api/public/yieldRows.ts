import type { Prices } from "../../../services/Prices.ts"
import { amount } from "../amounts.ts"
import { catalogEntryByAddress } from "../../domain/catalog.ts"
import type { FeeSchedule } from "../../domain/history/yieldMetrics.ts"
import type { ProjectionState } from "../../domain/projection/state.ts"
import { valuationOf } from "../../domain/vaultValuation.ts"
import { totalEquity } from "../../ntbundle/math.ts"
import type { YieldVault } from "./PublicApi.ts"

export interface YieldRow {
  /** APYs null: the handler fills them from the vault's daily history (yieldApys.ts). */
  readonly row: typeof YieldVault.Type
  /** The vault's current fee schedule, which the after-fee APYs deduct. */
  readonly fees: FeeSchedule
}

/**
 * The public catalog's vaults (listed, not private, enabled, not deprecated) in the shape yield
 * aggregators read, ordered by address.
 */
export const yieldRows = (state: ProjectionState, prices: Prices["Type"]): Array<YieldRow> => {
  const rows: Array<YieldRow> = []
  for (const view of state.vaults.values()) {
    const entry = catalogEntryByAddress(view.address)
    if (entry === null) continue
    const { flags, registry } = entry
    if (!flags.visible || flags.private || !flags.enabled || flags.deprecated) continue
    const mint = view.bundle.assetAddress
    const price = prices.priceOf(mint)
    const equity = valuationOf(view) === null || view.oracle === null ? null : totalEquity({ bundle: view.bundle, oracle: view.oracle })
    const row = {
      bundleKey: view.address,
      name: registry.displayName,
      asset: { mint, symbol: registry.token.mint === mint ? registry.token.displaySymbol : registry.depositToken },
      tvlUsd: price === null || equity === null ? null : amount(equity, view.bundle.assetDecimals, price.usd).usd,
      apy7dAfterFees: null,
      apy30dAfterFees: null,
      apyInceptionAfterFees: null
    }
    rows.push({ row, fees: { managementFeeBps: view.bundle.managementFeeBps, performanceFeeBps: view.bundle.performanceFee } })
  }
  return rows.sort((a, b) => a.row.bundleKey.localeCompare(b.row.bundleKey))
}
