import type { Address } from "@solana/kit"
import { BPS_DENOMINATOR, estimatePendingFees, resolveEffectiveFees } from "../../ntbundle/math.ts"
import { mut, nowOf, remainingAccounts, signer } from "./accounts.ts"
import { ensure } from "./anchorErrors.ts"
import type { HandlerTable } from "./handler.ts"
import { emit, valuationOf } from "./support.ts"
import { liveReferralRates, openForKeeper, openOracle, openTempData, openUserBundle, openUserReferrer } from "./vault.ts"

/**
 * Keeper fee charging and oracle updates.
 *
 * apply_fees_to_user: management fee pro rata to the time since the user's last charge, then the
 * performance fee above the high-water mark (src/ntbundle/math `estimatePendingFees`, facts §6).
 * The fee shares move from the user to the manager (total_shares unchanged); for a referred user
 * the builder's part is carved out of the same shares at its LIVE rate (tier from the current
 * referred-net-deposits counter, then its overrides), floor-rounded, and accrues on its
 * ReferrerAccount. A deactivated builder keeps accruing: deactivation only stops new bindings.
 * The high-water mark per share rises to the price when the price exceeds it.
 *
 * update_oracle: `oracle_update_time_limit` is the minimum interval between two updates and
 * `oracle_buffer` the largest move allowed per update, in bps of the vault's total equity
 * (both unknown on the real program; 0 disables either check).
 */
const FEE_ACCOUNTS = [
  signer("keeper"),
  mut("user_bundle_account_owner"),
  mut("user_bundle_account"),
  mut("bundle_account"),
  mut("oracle_data"),
  mut("bundle_asset_authority")
] as const

const ORACLE_ACCOUNTS = [signer("keeper"), mut("bundle_account"), mut("bundle_temp_data"), mut("oracle_data")] as const

const bpsOf = (shares: bigint, bps: number): bigint => (shares * BigInt(bps)) / BPS_DENOMINATOR

export const feeHandlers: HandlerTable = {
  apply_fees_to_user: (context) => {
    const { accounts, vault } = openForKeeper(context, "apply_fees_to_user", FEE_ACCOUNTS)
    const { bundle } = vault
    const oracle = openOracle(context, vault, accounts.oracle_data)
    const owner = accounts.user_bundle_account_owner
    const user = openUserBundle(context, vault, owner, accounts.user_bundle_account)
    const referrer = openUserReferrer(context, vault, user, remainingAccounts(context, FEE_ACCOUNTS.length))
    const now = nowOf(context)

    const valuation = valuationOf(bundle, oracle)
    const fees = estimatePendingFees(valuation, user, resolveEffectiveFees(bundle, user), now)
    const rates = referrer === null ? { referralPfeeBps: 0, referralMfeeBps: 0, referralTierIndex: null } : liveReferralRates(bundle, referrer)
    const referrerMfee = bpsOf(fees.managementFeeShares, rates.referralMfeeBps)
    const referrerPfee = bpsOf(fees.performanceFeeShares, rates.referralPfeeBps)

    user.shares -= fees.totalFeeShares
    user.totalFeeCharged += fees.feeValueRaw
    if (user.lastManagementFeeTimestamp !== 0n || user.shares > 0n) user.lastManagementFeeTimestamp = now
    if (fees.sharePrice > user.hwmPerShare) {
      user.hwmPerShare = fees.sharePrice
      user.lastHighWaterMark = fees.sharePrice
    }
    bundle.managerMfeeShares += fees.managementFeeShares - referrerMfee
    bundle.managerPfeeShares += fees.performanceFeeShares - referrerPfee

    emit(context, {
      name: "ChargedFeesToUser",
      data: {
        totalFeeShares: fees.totalFeeShares,
        totalFeeValue: fees.feeValueRaw,
        managementFeeShares: fees.managementFeeShares,
        performanceFeeShares: fees.performanceFeeShares,
        sharePrice: fees.sharePrice,
        bundleAccountKey: vault.address as Address,
        user: owner as Address,
        userSharesAfter: user.shares,
        managerPfeeSharesAfter: bundle.managerPfeeShares,
        managerMfeeSharesAfter: bundle.managerMfeeShares,
        referralPfeeBps: rates.referralPfeeBps,
        referralMfeeBps: rates.referralMfeeBps,
        referralTierIndex: rates.referralTierIndex
      }
    })
    if (referrer === null) return
    referrer.accruedMfeeShares += referrerMfee
    referrer.accruedPfeeShares += referrerPfee
    emit(context, {
      name: "ReferralFeesAccrued",
      data: {
        user: owner as Address,
        referrer: referrer.referrer as Address,
        bundleAccountKey: vault.address as Address,
        referrerPfeeShares: referrerPfee,
        referrerMfeeShares: referrerMfee,
        accruedPfeeSharesAfter: referrer.accruedPfeeShares,
        accruedMfeeSharesAfter: referrer.accruedMfeeShares,
        referralPfeeBps: rates.referralPfeeBps,
        referralMfeeBps: rates.referralMfeeBps,
        referralTierIndex: rates.referralTierIndex
      }
    })
  },

  update_oracle: (context, { newEquity }) => {
    const { accounts, vault } = openForKeeper(context, "update_oracle", ORACLE_ACCOUNTS)
    const { bundle } = vault
    openTempData(context, vault, accounts.bundle_temp_data)
    const oracle = openOracle(context, vault, accounts.oracle_data)
    const now = nowOf(context)

    if (bundle.oracleUpdateTimeLimit > 0n && oracle.lastUpdateTime !== 0n) {
      ensure(now - oracle.lastUpdateTime >= bundle.oracleUpdateTimeLimit, "OracleUpdateTooFrequent")
    }
    const equityBefore = bundle.bundleUnderlyingBalance + oracle.averageExternalEquity
    if (bundle.oracleBuffer > 0n && equityBefore > 0n) {
      const move = newEquity > oracle.averageExternalEquity ? newEquity - oracle.averageExternalEquity : oracle.averageExternalEquity - newEquity
      ensure(move * BPS_DENOMINATOR <= equityBefore * bundle.oracleBuffer, "EquityOutOfBufferBound")
    }
    oracle.averageExternalEquity = newEquity
    oracle.lastUpdateTime = now
    emit(context, {
      name: "OracleUpdated",
      data: {
        averageExternalEquity: newEquity,
        bundleAccountKey: vault.address as Address,
        totalShares: bundle.totalShares,
        bundleUnderlyingBalance: bundle.bundleUnderlyingBalance
      }
    })
  }
}
