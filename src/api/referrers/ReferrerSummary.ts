import { Schema } from "effect"
import type { UsdPrice } from "../../domain/usdPrice.ts"
import type { ReferrerVault } from "../../domain/reporting/referrerVaults.ts"
import { tierStanding } from "../../domain/reporting/tierStanding.ts"
import { valuationOf } from "../../domain/vaultValuation.ts"
import { assetsFromShares } from "../../ntbundle/math.ts"
import { Amount, amount, RawAmount, TokenQuantity, tokenQuantity } from "../amounts.ts"
import { Address } from "../schemas.ts"
import { assetOf } from "../vaults/toVaultRecord.ts"
import { AssetInfo } from "../vaults/VaultRecord.ts"

const CurrentTier = Schema.Struct({
  index: Schema.Int,
  threshold: RawAmount,
  /** Live rates: the tier's, or the builder's custom rate where its override flag is set. */
  mfeeBps: Schema.Int,
  pfeeBps: Schema.Int
}).annotations({ identifier: "ReferrerCurrentTier" })

const NextTier = Schema.Struct({
  index: Schema.Int,
  threshold: RawAmount,
  /** Exact referred net deposit still needed to reach the tier. */
  remaining: RawAmount
}).annotations({ identifier: "ReferrerNextTier" })

const PendingWithdrawal = Schema.Struct({
  shares: TokenQuantity,
  /** The value the program recorded when the claim was requested. */
  estimatedValue: Amount,
  /** Unix seconds when the claim can settle (cooldown end), null when the account does not say. */
  estimatedAvailableAt: Schema.NullOr(Schema.Int)
}).annotations({ identifier: "ReferrerPendingWithdrawal" })

/** One vault of a builder (spec §2.4). Shares use the asset's decimals. */
export const ReferrerVaultSummary = Schema.Struct({
  vault: Address,
  asset: AssetInfo,
  /** The builder has a ReferrerAccount in the vault. */
  registered: Schema.Boolean,
  /** The ReferrerAccount's address, null when not registered. */
  referrerAccount: Schema.NullOr(Address),
  active: Schema.Boolean,
  accruedMfeeShares: TokenQuantity,
  accruedPfeeShares: TokenQuantity,
  accruedTotalShares: TokenQuantity,
  /** The accrued shares at the current share price; null until the vault's oracle account is seen. */
  claimable: Schema.NullOr(Amount),
  /** A requested claim that has not settled yet (it is not in the payouts until it does). */
  pendingWithdrawal: Schema.NullOr(PendingWithdrawal),
  attributedUsers: Schema.Int,
  /** Mark-to-market of the bound cohort's shares; null until the vault's oracle account is seen. */
  attributedTvl: Schema.NullOr(Amount),
  /** Referred deposits minus referred withdrawals in this vault (signed; never combined across vaults). */
  referredNetDeposits: TokenQuantity,
  currentTier: Schema.NullOr(CurrentTier),
  nextTier: Schema.NullOr(NextTier)
}).annotations({ identifier: "ReferrerVaultSummary" })
export type ReferrerVaultSummary = typeof ReferrerVaultSummary.Type

export const ReferrerSummary = Schema.Struct({
  referrer: Address,
  /** One group per vault where the builder is registered or has bound users, by vault address. */
  vaults: Schema.Array(ReferrerVaultSummary)
}).annotations({ identifier: "ReferrerSummary" })
export type ReferrerSummary = typeof ReferrerSummary.Type

const timestamp = (value: bigint): number | null => (value > 0n ? Number(value) : null)

export const toReferrerVaultSummary = (
  { cohort, registration, view }: ReferrerVault,
  priceOf: (mint: string) => UsdPrice | null
): ReferrerVaultSummary => {
  const asset = assetOf(view)
  const usd = priceOf(asset.mint)?.usd ?? null
  const account = registration?.entry.account ?? null
  const valuation = valuationOf(view)
  const valueOf = (shares: bigint) => (valuation === null ? null : amount(assetsFromShares(valuation, shares), asset.decimals, usd))
  const accruedMfee = account?.accruedMfeeShares ?? 0n
  const accruedPfee = account?.accruedPfeeShares ?? 0n
  const standing = tierStanding(view.bundle, account)
  return {
    vault: view.address as Address,
    asset,
    registered: account !== null,
    referrerAccount: (registration?.address ?? null) as Address | null,
    active: account?.active ?? false,
    accruedMfeeShares: tokenQuantity(accruedMfee, asset.decimals),
    accruedPfeeShares: tokenQuantity(accruedPfee, asset.decimals),
    accruedTotalShares: tokenQuantity(accruedMfee + accruedPfee, asset.decimals),
    claimable: valueOf(accruedMfee + accruedPfee),
    pendingWithdrawal: account === null || account.pendingWithdrawShares === 0n ? null : {
      shares: tokenQuantity(account.pendingWithdrawShares, asset.decimals),
      estimatedValue: amount(account.estimatedPendingWithdrawalValue, asset.decimals, usd),
      estimatedAvailableAt: timestamp(account.withdrawalAvailableTimestamp)
    },
    attributedUsers: cohort?.positions.size ?? 0,
    attributedTvl: valueOf(cohort?.shares ?? 0n),
    referredNetDeposits: tokenQuantity(standing.referredNetDeposits, asset.decimals),
    currentTier: standing.current === null ? null : {
      index: standing.current.index,
      threshold: standing.current.threshold.toString(),
      mfeeBps: standing.current.mfeeBps,
      pfeeBps: standing.current.pfeeBps
    },
    nextTier: standing.next === null ? null : {
      index: standing.next.index,
      threshold: standing.next.threshold.toString(),
      remaining: standing.next.remaining.toString()
    }
  }
}
