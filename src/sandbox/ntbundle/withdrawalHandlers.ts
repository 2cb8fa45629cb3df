import type { Address } from "@solana/kit"
import { assetsFromShares, bundleCooldownCurve, cooldownSeconds, resolveEffectiveFees, sharePrice, withdrawalAvailableAt } from "../../ntbundle/math.ts"
import { SYSTEM_PROGRAM_ID, SYSVAR_RENT_ID, TOKEN_PROGRAM_ID } from "../programs/ids.ts"
import { fixed, mut, nowOf, readonlyAccount, remainingAccounts, resolveAccounts, signer } from "./accounts.ts"
import { ensure } from "./anchorErrors.ts"
import type { HandlerTable } from "./handler.ts"
import { checkTokenAccount, emit, logInstruction, transferTokens, valuationOf, withdrawalFee } from "./support.ts"
import { settleRedemption } from "./redemption.ts"
import { openBundle, openForKeeper, openOracle, openTempData, openUserBundle, openUserReferrer, referredAfter } from "./vault.ts"

/**
 * Withdrawals: the request locks the shares (they move from `shares` to `pending_shares`, so they
 * stop earning fees but still count in `total_shares`) and fixes the availability time from the
 * cooldown curve and the redemption schedule; processing burns them and pays the value at the
 * processing-time price, minus the withdrawal fee, from the vault's asset account.
 */
const REQUEST_ACCOUNTS = [
  signer("user"),
  mut("user_bundle_account"),
  mut("bundle_account"),
  mut("oracle_data"),
  mut("bundle_temp_data"),
  fixed("token_program", TOKEN_PROGRAM_ID),
  fixed("system_program", SYSTEM_PROGRAM_ID),
  fixed("rent", SYSVAR_RENT_ID)
] as const

const PROCESS_ACCOUNTS = [
  signer("keeper"),
  readonlyAccount("user_bundle_account_owner"),
  mut("user_token_account"),
  mut("asset_address"),
  mut("bundle_asset_account"),
  mut("pending_bundle_asset_authority"),
  mut("user_bundle_account"),
  mut("treasury_account"),
  mut("bundle_asset_authority"),
  mut("bundle_account"),
  mut("bundle_temp_data"),
  mut("oracle_data"),
  fixed("token_program", TOKEN_PROGRAM_ID),
  fixed("system_program", SYSTEM_PROGRAM_ID)
] as const

export const withdrawalHandlers: HandlerTable = {
  request_withdrawal: (context, { sharesAmount }) => {
    logInstruction(context, "request_withdrawal")
    const accounts = resolveAccounts(context, REQUEST_ACCOUNTS)
    const vault = openBundle(context, accounts.bundle_account, true)
    const { bundle } = vault
    const oracle = openOracle(context, vault, accounts.oracle_data)
    const temp = openTempData(context, vault, accounts.bundle_temp_data)
    const user = openUserBundle(context, vault, accounts.user, accounts.user_bundle_account)
    const now = nowOf(context)

    ensure(sharesAmount > 0n, "InvalidWithdrawalAmount")
    ensure(!temp.pausedDepositsWithdrawals, "PausedDepositsWithdrawals")
    ensure(user.pendingDeposit === 0n, "PendingDepositExists")
    ensure(user.pendingShares === 0n, "PendingWithdrawalExists")
    ensure(sharesAmount <= user.shares, "InsufficientSharesBalance")
    if (bundle.withdrawalDelay > 0n) ensure(now >= user.lastDepositTimestamp + bundle.withdrawalDelay, "WithdrawalDelayNotMet")
    const valuation = valuationOf(bundle, oracle)
    const estimatedValue = assetsFromShares(valuation, sharesAmount)
    ensure(estimatedValue > 0n, "RedemptionAmountZero")
    const cooldown = cooldownSeconds(bundleCooldownCurve(bundle), sharesAmount, bundle.totalShares)
    const availableAt = withdrawalAvailableAt(now, cooldown, bundle)

    user.shares -= sharesAmount
    user.pendingShares = sharesAmount
    user.estimatedPendingWithdrawalValue = estimatedValue
    user.withdrawalAvailableTimestamp = availableAt
    temp.pendingWithdrawalsCounter += 1n

    emit(context, {
      name: "WithdrawalRequested",
      data: {
        user: accounts.user as Address,
        amount: sharesAmount,
        timestamp: now,
        cooldownPeriod: cooldown,
        estimatedPendingWithdrawalValue: estimatedValue,
        bundleAccountKey: vault.address as Address,
        cooldownEndTimestamp: availableAt,
        estimatedNetAmount: estimatedValue - withdrawalFee(estimatedValue, resolveEffectiveFees(bundle, user).withdrawalFeeBps)
      }
    })
  },

  process_withdrawal: (context) => {
    const { accounts, vault } = openForKeeper(context, "process_withdrawal", PROCESS_ACCOUNTS)
    const { bundle, pdas } = vault
    const owner = accounts.user_bundle_account_owner
    const oracle = openOracle(context, vault, accounts.oracle_data)
    const temp = openTempData(context, vault, accounts.bundle_temp_data)
    const user = openUserBundle(context, vault, owner, accounts.user_bundle_account)
    const referrer = openUserReferrer(context, vault, user, remainingAccounts(context, PROCESS_ACCOUNTS.length))
    checkTokenAccount(context, "user_token_account", accounts.user_token_account, bundle.assetAddress, owner)
    const now = nowOf(context)

    const shares = user.pendingShares
    ensure(shares > 0n, "NoPendingWithdrawal")
    // Shares locked by a switch request leave through process_switch only.
    ensure(!user.switchActive, "SwitchAlreadyActive")
    ensure(now >= user.withdrawalAvailableTimestamp, "WithdrawalDelayNotMet")
    const valuation = valuationOf(bundle, oracle)
    const price = sharePrice(valuation)
    const gross = assetsFromShares(valuation, shares)
    ensure(gross <= bundle.bundleUnderlyingBalance, "InsufficientBundleBalance")
    const fee = withdrawalFee(gross, resolveEffectiveFees(bundle, user).withdrawalFeeBps)
    const net = gross - fee

    transferTokens(context, { source: pdas.assetTokenAccount, destination: accounts.user_token_account, authority: pdas.assetAuthority, amount: net }, pdas.assetAuthoritySeeds)
    transferTokens(context, { source: pdas.assetTokenAccount, destination: accounts.treasury_account, authority: pdas.assetAuthority, amount: fee }, pdas.assetAuthoritySeeds)
    const { totalSharesBefore, userSharesBefore } = settleRedemption(bundle, temp, user, referrer, { shares, gross, now })

    emit(context, {
      name: "Redeemed",
      data: {
        from: pdas.assetTokenAccount as Address,
        to: accounts.user_token_account as Address,
        netAmount: net,
        feeAmount: fee,
        timestamp: now,
        bundleAccountKey: vault.address as Address,
        grossAmount: gross,
        sharePrice: price,
        userSharesBefore,
        userSharesAfter: user.shares,
        totalSharesBefore,
        totalSharesAfter: bundle.totalShares,
        referredNetDepositsAfter: referredAfter(referrer)
      }
    })
  }
}
