import { Schema } from "effect"
import type { CapitalFlowTotals } from "../../../services/VaultHistory.ts"
import type { UsdPrice } from "../../domain/usdPrice.ts"
import type { ProjectionState } from "../../domain/projection/state.ts"
import { valuationOf } from "../../domain/vaultValuation.ts"
import { Amount, amount, TokenQuantity, tokenQuantity } from "../amounts.ts"
import { Address } from "../schemas.ts"
import { assetOf } from "../vaults/toVaultRecord.ts"
import { AssetInfo } from "../vaults/VaultRecord.ts"

const AssetStats = Schema.Struct({
  asset: AssetInfo,
  /** How many vaults hold this asset (`vaults` elsewhere is a list of vaults). */
  vaultCount: Schema.Int,
  tvl: Amount.annotations({
    description: "Total equity (vault balance + oracle-reported external equity) of the asset's vaults whose oracle account has been seen"
  }),
  netDeposits: Schema.NullOr(TokenQuantity).annotations({
    description:
      "Capital deposited and not withdrawn: cumulativeDeposits minus every withdrawal processed (Redeemed.gross_amount, " +
      "before the withdrawal fee; switches out at their gross redemption), over the same event log. Signed (negative " +
      "when more value left than came in). Position by position it moves as the program's net_deposits counter does, " +
      "but it also keeps the flows of positions closed since, and leaves out capital written without a transaction " +
      "(the sandbox's genesis seed positions). Null while the history backfill is still loading older events."
  }),
  cumulativeDeposits: Schema.NullOr(TokenQuantity).annotations({
    description:
      "Capital raised: every deposit processed into shares (Allocated.net_amount, after the deposit fee; switches in at " +
      "the amount credited), over the whole event log. Requests not processed yet or refunded and the deposit fees paid " +
      "to the treasury are not capital and do not count. Never below netDeposits. Null while the history backfill is " +
      "still loading older events."
  })
})

export const PlatformStats = Schema.Struct({
  /** How many vaults the projection holds. */
  vaultCount: Schema.Int,
  /** Distinct wallets holding shares in at least one vault. */
  activeUsers: Schema.Int,
  assets: Schema.Array(AssetStats),
  /** Cross-asset TVL in USD; null when any asset is unpriced (listed in `unpricedAssets`). */
  tvlUsd: Schema.NullOr(Schema.Number),
  unpricedAssets: Schema.Array(Address),
  /** Vaults left out of TVL because their oracle account has not been seen. */
  degradedVaults: Schema.Array(Address)
}).annotations({ identifier: "PlatformStats" })
export type PlatformStats = typeof PlatformStats.Type

interface AssetTotals {
  readonly asset: typeof AssetInfo.Type
  vaultCount: number
  tvl: bigint
  deposited: bigint
  withdrawn: bigint
}

export const toPlatformStats = (
  state: ProjectionState,
  priceOf: (mint: string) => UsdPrice | null,
  flows: CapitalFlowTotals
): PlatformStats => {
  const byMint = new Map<string, AssetTotals>()
  const degradedVaults: Array<Address> = []
  for (const view of state.vaults.values()) {
    const asset = assetOf(view)
    let totals = byMint.get(asset.mint)
    if (totals === undefined) byMint.set(asset.mint, (totals = { asset, vaultCount: 0, tvl: 0n, deposited: 0n, withdrawn: 0n }))
    totals.vaultCount++
    const vaultFlows = flows.byVault.get(view.address)
    totals.deposited += vaultFlows?.deposited ?? 0n
    totals.withdrawn += vaultFlows?.withdrawn ?? 0n
    const valuation = valuationOf(view)
    if (valuation === null) degradedVaults.push(view.address as Address)
    else totals.tvl += valuation.totalEquity
  }
  const assets = [...byMint.values()].map((totals) => ({
    asset: totals.asset,
    vaultCount: totals.vaultCount,
    tvl: amount(totals.tvl, totals.asset.decimals, priceOf(totals.asset.mint)?.usd ?? null),
    netDeposits: flows.complete ? tokenQuantity(totals.deposited - totals.withdrawn, totals.asset.decimals) : null,
    cumulativeDeposits: flows.complete ? tokenQuantity(totals.deposited, totals.asset.decimals) : null
  }))
  const unpricedAssets = assets.filter((stats) => stats.tvl.usd === null).map((stats) => stats.asset.mint)
  return {
    vaultCount: state.vaults.size,
    activeUsers: state.activeOwners.size,
    assets,
    tvlUsd: unpricedAssets.length > 0 ? null : assets.reduce((sum, stats) => sum + (stats.tvl.usd ?? 0), 0),
    unpricedAssets,
    degradedVaults
  }
}
