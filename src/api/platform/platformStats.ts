import { Schema } from "effect"
import type { UsdPrice } from "../../domain/usdPrice.ts"
import type { ProjectionState } from "../../domain/projection/state.ts"
import { valuationOf } from "../../domain/vaultValuation.ts"
import { Amount, amount, TokenQuantity, tokenQuantity } from "../amounts.ts"
import { Address } from "../schemas.ts"
import { assetOf } from "../vaults/toVaultRecord.ts"
import { AssetInfo } from "../vaults/VaultRecord.ts"

/** Offset of `net_deposits` (i128 LE) in a UserBundleAccount (facts §2). */
const NET_DEPOSITS_OFFSET = 152

const readI128 = (data: Uint8Array, offset: number): bigint => {
  const view = new DataView(data.buffer, data.byteOffset + offset, 16)
  return (view.getBigInt64(8, true) << 64n) | view.getBigUint64(0, true)
}

const AssetStats = Schema.Struct({
  asset: AssetInfo,
  vaults: Schema.Int,
  /** Total equity summed over the asset's vaults whose oracle account has been seen. */
  tvl: Amount,
  /**
   * Sum of `net_deposits` (lifetime deposits − withdrawals) over the positions that exist now: capital
   * the program's users have put in and not taken out. Closed positions no longer count.
   */
  netDeposits: TokenQuantity,
  /**
   * Sum of every `DepositRequested` gross amount in the event log (capital raised since the
   * program's first event the gateway has stored; grows as the history backfill proceeds).
   */
  cumulativeDeposits: TokenQuantity
})

export const PlatformStats = Schema.Struct({
  vaults: Schema.Int,
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
  vaults: number
  tvl: bigint
  netDeposits: bigint
  cumulativeDeposits: bigint
}

export const toPlatformStats = (
  state: ProjectionState,
  priceOf: (mint: string) => UsdPrice | null,
  depositTotals: ReadonlyMap<string, bigint>
): PlatformStats => {
  const byMint = new Map<string, AssetTotals>()
  const mintOfVault = new Map<string, string>()
  const degradedVaults: Array<Address> = []
  for (const view of state.vaults.values()) {
    const asset = assetOf(view)
    let totals = byMint.get(asset.mint)
    if (totals === undefined) byMint.set(asset.mint, (totals = { asset, vaults: 0, tvl: 0n, netDeposits: 0n, cumulativeDeposits: 0n }))
    totals.vaults++
    totals.cumulativeDeposits += depositTotals.get(view.address) ?? 0n
    mintOfVault.set(view.address, asset.mint)
    const valuation = valuationOf(view)
    if (valuation === null) degradedVaults.push(view.address as Address)
    else totals.tvl += valuation.totalEquity
  }
  for (const [address, user] of state.users) {
    const totals = user.vault === null ? undefined : byMint.get(mintOfVault.get(user.vault) ?? "")
    const raw = state.accounts.get(address)
    if (totals !== undefined && raw !== undefined && raw.data.length >= NET_DEPOSITS_OFFSET + 16) {
      totals.netDeposits += readI128(raw.data, NET_DEPOSITS_OFFSET)
    }
  }
  const assets = [...byMint.values()].map((totals) => ({
    asset: totals.asset,
    vaults: totals.vaults,
    tvl: amount(totals.tvl, totals.asset.decimals, priceOf(totals.asset.mint)?.usd ?? null),
    netDeposits: tokenQuantity(totals.netDeposits, totals.asset.decimals),
    cumulativeDeposits: tokenQuantity(totals.cumulativeDeposits, totals.asset.decimals)
  }))
  const unpricedAssets = assets.filter((stats) => stats.tvl.usd === null).map((stats) => stats.asset.mint)
  return {
    vaults: state.vaults.size,
    activeUsers: state.activeOwners.size,
    assets,
    tvlUsd: unpricedAssets.length > 0 ? null : assets.reduce((sum, stats) => sum + (stats.tvl.usd ?? 0), 0),
    unpricedAssets,
    degradedVaults
  }
}
