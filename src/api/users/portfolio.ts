import { Schema } from "effect"
import type { UsdPrice } from "../../domain/usdPrice.ts"
import type { ProjectionState } from "../../domain/projection/state.ts"
import { valuationOf } from "../../domain/vaultValuation.ts"
import { assetsFromShares } from "../../ntbundle/math.ts"
import { Amount, amount, TokenQuantity, tokenQuantity } from "../amounts.ts"
import { Address } from "../schemas.ts"
import { assetOf } from "../vaults/toVaultRecord.ts"
import { AssetInfo } from "../vaults/VaultRecord.ts"
import { positionsOf } from "./positionOf.ts"

const PortfolioPosition = Schema.Struct({
  vault: Address,
  asset: AssetInfo,
  shares: TokenQuantity,
  value: Amount,
  netDeposits: TokenQuantity,
  pendingDeposit: TokenQuantity
})

export const Portfolio = Schema.Struct({
  user: Address,
  positions: Schema.Array(PortfolioPosition),
  /** Position values summed per deposit asset. */
  totals: Schema.Array(Schema.Struct({ asset: AssetInfo, value: Amount })),
  /** Sum of every total's USD value; null when any asset is unpriced (listed in `unpricedAssets`). */
  totalUsd: Schema.NullOr(Schema.Number),
  unpricedAssets: Schema.Array(Address),
  /** Vaults holding a position of the wallet that cannot be valued now (oracle account not seen). */
  degradedVaults: Schema.Array(Address)
}).annotations({ identifier: "Portfolio" })
export type Portfolio = typeof Portfolio.Type

export const toPortfolio = (
  state: ProjectionState,
  wallet: Address,
  priceOf: (mint: string) => UsdPrice | null
): Portfolio => {
  const positions: Array<typeof PortfolioPosition.Type> = []
  const degradedVaults: Array<Address> = []
  const totals = new Map<string, { asset: typeof AssetInfo.Type; raw: bigint }>()
  for (const position of positionsOf(state, wallet)) {
    const view = state.vaults.get(position.vault)
    const valuation = view === undefined ? null : valuationOf(view)
    if (view === undefined || valuation === null) {
      degradedVaults.push(position.vault as Address)
      continue
    }
    const asset = assetOf(view)
    const valueRaw = assetsFromShares(valuation, position.account.shares)
    positions.push({
      vault: view.address as Address,
      asset,
      shares: tokenQuantity(position.account.shares, asset.decimals),
      value: amount(valueRaw, asset.decimals, priceOf(asset.mint)?.usd ?? null),
      netDeposits: tokenQuantity(position.account.netDeposits, asset.decimals),
      pendingDeposit: tokenQuantity(position.account.pendingDeposit, asset.decimals)
    })
    const total = totals.get(asset.mint) ?? { asset, raw: 0n }
    totals.set(asset.mint, { asset, raw: total.raw + valueRaw })
  }
  const totalAmounts = [...totals.values()].map(({ asset, raw }) => ({
    asset,
    value: amount(raw, asset.decimals, priceOf(asset.mint)?.usd ?? null)
  }))
  const unpricedAssets = totalAmounts.filter((total) => total.value.usd === null).map((total) => total.asset.mint)
  return {
    user: wallet,
    positions,
    totals: totalAmounts,
    totalUsd: unpricedAssets.length > 0 ? null : totalAmounts.reduce((sum, total) => sum + (total.value.usd ?? 0), 0),
    unpricedAssets,
    degradedVaults
  }
}
