import { Schema } from "effect"
import type { UsdPrice } from "../../domain/usdPrice.ts"
import type { AsOf } from "../../domain/chainPosition.ts"
import type { VaultView } from "../../domain/projection/state.ts"
import { valuationOf } from "../../domain/vaultValuation.ts"
import { assetsFromShares, estimatePendingFees, resolveEffectiveFees } from "../../ntbundle/math.ts"
import { Amount, amount, TokenQuantity, tokenQuantity } from "../amounts.ts"
import { Address } from "../schemas.ts"
import { assetOf } from "../vaults/toVaultRecord.ts"
import { AssetInfo } from "../vaults/VaultRecord.ts"
import type { PositionBalanceFields } from "../../domain/projection/userFields.ts"
import type { Position } from "./positionOf.ts"

/** A wallet's position in one vault (facts §10.8), plus earnings, pending deposit and fees paid. */
export const Balance = Schema.Struct({
  vault: Address,
  user: Address,
  asset: AssetInfo,
  /** Shares use the asset's decimals (initial price 1.0). */
  shares: TokenQuantity,
  /** shares × total equity / total shares; null until the vault's oracle account is seen. */
  value: Schema.NullOr(Amount),
  /** Lifetime deposits − withdrawals of this position (signed). */
  netDeposits: TokenQuantity,
  /** value − netDeposits (signed); null when value is. */
  earnings: Schema.NullOr(TokenQuantity),
  /** Net deposit waiting for the keeper to mint shares. */
  pendingDeposit: TokenQuantity,
  feesPaid: TokenQuantity,
  /**
   * Management and performance fees the keeper would charge at `estimatedAt` (the asOf block
   * time), with the vault-level rates as the real service does; null when the chain time or the
   * vault's valuation is unknown.
   */
  unpaidFeeEstimate: Schema.NullOr(
    Schema.Struct({ estimatedAt: Schema.Int, totalFeeShares: TokenQuantity, value: Amount })
  )
}).annotations({ identifier: "Balance" })
export type Balance = typeof Balance.Type

/** The fields of a balance that move with the vault's valuation and chain time, not with the position alone. */
export interface BalanceValuation {
  readonly value: Balance["value"]
  readonly earnings: Balance["earnings"]
  readonly unpaidFeeEstimate: Balance["unpaidFeeEstimate"]
}

export const balanceValuation = (
  view: VaultView,
  account: PositionBalanceFields,
  asset: AssetInfo,
  asOf: AsOf | null,
  priceOf: (mint: string) => UsdPrice | null
): BalanceValuation => {
  const usd = priceOf(asset.mint)?.usd ?? null
  const valuation = valuationOf(view)
  const valueRaw = valuation === null ? null : assetsFromShares(valuation, account.shares)
  const now = asOf?.blockTime ?? null
  const fees =
    valuation === null || now === null
      ? null
      : estimatePendingFees(valuation, account, resolveEffectiveFees(view.bundle, null), BigInt(now))
  return {
    value: valueRaw === null ? null : amount(valueRaw, asset.decimals, usd),
    earnings: valueRaw === null ? null : tokenQuantity(valueRaw - account.netDeposits, asset.decimals),
    unpaidFeeEstimate: fees === null || now === null ? null : {
      estimatedAt: now,
      totalFeeShares: tokenQuantity(fees.totalFeeShares, asset.decimals),
      value: amount(fees.feeValueRaw, asset.decimals, usd)
    }
  }
}

export const toBalance = (
  view: VaultView,
  position: Position,
  asOf: AsOf | null,
  priceOf: (mint: string) => UsdPrice | null
): Balance => {
  const asset = assetOf(view)
  const { account } = position
  const { value, earnings, unpaidFeeEstimate } = balanceValuation(view, account, asset, asOf, priceOf)
  return {
    vault: view.address as Address,
    user: account.owner,
    asset,
    shares: tokenQuantity(account.shares, asset.decimals),
    value,
    netDeposits: tokenQuantity(account.netDeposits, asset.decimals),
    earnings,
    pendingDeposit: tokenQuantity(account.pendingDeposit, asset.decimals),
    feesPaid: tokenQuantity(account.totalFeeCharged, asset.decimals),
    unpaidFeeEstimate
  }
}
