import type { Address } from "@solana/kit"
import { ZERO_ADDRESS } from "../../ntbundle/blankAccounts.ts"
import {
  assetsFromShares,
  bundleCooldownCurve,
  cooldownSeconds,
  depositFee,
  resolveEffectiveFees,
  sharePrice,
  totalEquity,
  withdrawalAvailableAt
} from "../../ntbundle/math.ts"
import { SYSTEM_PROGRAM_ID, SYSVAR_RENT_ID, TOKEN_PROGRAM_ID } from "../programs/ids.ts"
import type { InvocationContext } from "../runtime/program.ts"
import { expectAddress, fixed, load, loadMut, mut, nowOf, readonlyAccount, remainingAccounts, resolveAccounts, signer, USER_BUNDLE } from "./accounts.ts"
import { ensure } from "./anchorErrors.ts"
import type { HandlerTable } from "./handler.ts"
import { DISCRIMINATOR, hasDiscriminator, userBundleView } from "./layout.ts"
import { isUserBundlePda } from "./positionPdas.ts"
import { checkTokenAccount, emit, logInstruction, transferTokens, valuationOf, withdrawalFee } from "./support.ts"
import { settleRedemption } from "./redemption.ts"
import { openBundle, openOracle, openTempData, openUserBundle, openUserReferrer, referredAfter, requireKeeper, type OpenVault } from "./vault.ts"

/**
 * Bundle switches: shares of one vault (the source) moved into another vault of the same asset
 * mint (the target) through the keeper, without passing through the user's wallet.
 *
 * - request_bundle_switch locks the shares as request_withdrawal does (same checks, cooldown and
 *   availability time, `pending_shares`, `pending_withdrawals_counter`) and records the switch on
 *   the source position (`switch_active`, `switch_target_bundle`, `switch_created_at`). The
 *   user's position in the target must already exist (the SDK initialises it first).
 * - process_switch, once the cooldown has passed, redeems the shares at the processing-time
 *   source price (withdrawal fee A to the source treasury, `net_deposits` lowered by the gross
 *   value as a withdrawal), then deposits the rest into the target as a deposit request would:
 *   deposit fee B to the target treasury and the net amount to the target's pending deposit token
 *   account, credited to the target position's `pending_deposit`. We read it as a pending deposit,
 *   not minted shares, because the IDL gives process_switch the target's pending deposit token
 *   account and authority and only a read-only target Bundle (no asset account, so no minting);
 *   the target's next netting and process_deposit turn it into shares (an `Allocated` event), and
 *   its referral counter moves then.
 * - When the target cannot take the deposit (its deposits are paused: reason 1; its cap would be
 *   exceeded: reason 2; the reason codes are not documented), the net amount after fee A goes to
 *   the user's wallet with BundleSwitchFallbackToWallet. While the target's deposit cycle is
 *   netted (NettingAlreadyDone), process_switch fails and the keeper retries, as a deposit request
 *   would.
 * - `estimated_destination_pending_deposit` is read as the target position's pending deposit
 *   after the switch lands, at the request-time price.
 * - A switch-locked position cannot be paid out by process_withdrawal (SwitchAlreadyActive).
 * - Missing target accounts after the source's: SwitchTargetAccountsMissing; a target position
 *   that is not PDA(owner, target), or a target other than the one recorded at the request:
 *   SwitchTargetAccountMismatch.
 */
const REQUEST_ACCOUNTS = [
  signer("user"),
  mut("user_bundle_account"),
  mut("bundle_account"),
  mut("oracle_data"),
  mut("bundle_temp_data"),
  fixed("token_program", TOKEN_PROGRAM_ID),
  fixed("system_program", SYSTEM_PROGRAM_ID),
  fixed("rent", SYSVAR_RENT_ID),
  readonlyAccount("target_bundle_account"),
  readonlyAccount("target_user_bundle_account")
] as const

const PROCESS_ACCOUNTS = [
  signer("keeper"),
  readonlyAccount("user_bundle_account_owner"),
  mut("user_token_account"),
  mut("asset_address"),
  mut("source_bundle_asset_account"),
  mut("source_user_bundle_account"),
  mut("source_treasury_account"),
  mut("source_bundle_asset_authority"),
  mut("source_bundle_account"),
  mut("source_bundle_temp_data"),
  mut("source_oracle_data"),
  readonlyAccount("target_bundle_account"),
  mut("target_user_bundle_account"),
  mut("target_bundle_temp_data"),
  mut("target_pending_deposit_token_account"),
  readonlyAccount("target_pending_bundle_asset_authority"),
  readonlyAccount("target_oracle_data"),
  mut("target_treasury_account"),
  fixed("token_program", TOKEN_PROGRAM_ID),
  fixed("system_program", SYSTEM_PROGRAM_ID)
] as const

/** The source's accounts all passed but some of the target's missing (SwitchTargetAccountsMissing; inferred from its name). */
const requireTargetAccounts = (context: InvocationContext, sourceCount: number, total: number): void => {
  const passed = context.instruction.accounts.length
  ensure(passed < sourceCount || passed >= total, "SwitchTargetAccountsMissing")
}

const FALLBACK_TARGET_PAUSED = 1
const FALLBACK_TARGET_CAP = 2

/** The target vault of a switch: another vault of the same mint. */
const openTarget = (context: InvocationContext, source: OpenVault, address: string): OpenVault => {
  ensure(address !== source.address, "SwitchTargetSameAsSource")
  const target = openBundle(context, address, false)
  ensure(target.bundle.assetAddress === source.bundle.assetAddress, "SwitchAssetMintMismatch")
  return target
}

/** The user's position in the target vault must be PDA(owner, target) (SwitchTargetAccountMismatch otherwise). */
const checkTargetPosition = (context: InvocationContext, target: OpenVault, owner: string, passed: string): void => {
  const data = context.account(passed).data
  const storedOwner = hasDiscriminator(data, DISCRIMINATOR.UserBundleAccount) && data.length >= 440 ? userBundleView(data).owner : undefined
  ensure(isUserBundlePda(context.programId, passed, owner, target.address, storedOwner), "SwitchTargetAccountMismatch")
}

export const switchHandlers: HandlerTable = {
  request_bundle_switch: (context, { sharesAmount }) => {
    logInstruction(context, "request_bundle_switch")
    requireTargetAccounts(context, REQUEST_ACCOUNTS.length - 2, REQUEST_ACCOUNTS.length)
    const accounts = resolveAccounts(context, REQUEST_ACCOUNTS)
    const vault = openBundle(context, accounts.bundle_account, true)
    const { bundle } = vault
    const oracle = openOracle(context, vault, accounts.oracle_data)
    const temp = openTempData(context, vault, accounts.bundle_temp_data)
    const user = openUserBundle(context, vault, accounts.user, accounts.user_bundle_account)
    const target = openTarget(context, vault, accounts.target_bundle_account)
    checkTargetPosition(context, target, accounts.user, accounts.target_user_bundle_account)
    const targetUser = load(context, "target_user_bundle_account", accounts.target_user_bundle_account, USER_BUNDLE)
    const now = nowOf(context)

    ensure(!user.switchActive, "SwitchAlreadyActive")
    ensure(sharesAmount > 0n, "InvalidWithdrawalAmount")
    ensure(!temp.pausedDepositsWithdrawals, "PausedDepositsWithdrawals")
    ensure(user.pendingDeposit === 0n, "PendingDepositExists")
    ensure(user.pendingShares === 0n, "PendingWithdrawalExists")
    ensure(sharesAmount <= user.shares, "InsufficientSharesBalance")
    if (bundle.withdrawalDelay > 0n) ensure(now >= user.lastDepositTimestamp + bundle.withdrawalDelay, "WithdrawalDelayNotMet")
    const gross = assetsFromShares(valuationOf(bundle, oracle), sharesAmount)
    ensure(gross > 0n, "RedemptionAmountZero")
    const cooldown = cooldownSeconds(bundleCooldownCurve(bundle), sharesAmount, bundle.totalShares)
    const availableAt = withdrawalAvailableAt(now, cooldown, bundle)
    const netToDestination = gross - withdrawalFee(gross, resolveEffectiveFees(bundle, user).withdrawalFeeBps)
    const { feeAmount, netAmount } = depositFee(netToDestination, resolveEffectiveFees(target.bundle, targetUser).depositFeeBps)

    user.shares -= sharesAmount
    user.pendingShares = sharesAmount
    user.estimatedPendingWithdrawalValue = gross
    user.withdrawalAvailableTimestamp = availableAt
    user.switchActive = true
    user.switchTargetBundle = target.address
    user.switchCreatedAt = now
    temp.pendingWithdrawalsCounter += 1n

    emit(context, {
      name: "BundleSwitchRequested",
      data: {
        user: accounts.user as Address,
        sourceBundle: vault.address as Address,
        targetBundle: target.address as Address,
        sharesAmount,
        estimatedGrossRedemption: gross,
        estimatedNetToDestination: netToDestination,
        estimatedDestinationDepositFee: feeAmount,
        estimatedDestinationPendingDeposit: targetUser.pendingDeposit + netAmount,
        cooldownEndTimestamp: availableAt,
        timestamp: now
      }
    })
  },

  process_switch: (context) => {
    logInstruction(context, "process_switch")
    requireTargetAccounts(context, PROCESS_ACCOUNTS.length - 9, PROCESS_ACCOUNTS.length - 2)
    const accounts = resolveAccounts(context, PROCESS_ACCOUNTS)
    const vault = openBundle(context, accounts.source_bundle_account, true)
    const { bundle, pdas } = vault
    requireKeeper(vault, accounts.keeper)
    expectAddress("asset_address", accounts.asset_address, bundle.assetAddress, "ConstraintAddress")
    expectAddress("source_bundle_asset_account", accounts.source_bundle_asset_account, pdas.assetTokenAccount)
    expectAddress("source_treasury_account", accounts.source_treasury_account, bundle.treasuryAccount, "ConstraintAddress")
    expectAddress("source_bundle_asset_authority", accounts.source_bundle_asset_authority, pdas.assetAuthority)
    const owner = accounts.user_bundle_account_owner
    const oracle = openOracle(context, vault, accounts.source_oracle_data)
    const temp = openTempData(context, vault, accounts.source_bundle_temp_data)
    const user = openUserBundle(context, vault, owner, accounts.source_user_bundle_account, "source_user_bundle_account")
    ensure(user.switchActive, "NoPendingSwitch")
    ensure(accounts.target_bundle_account === user.switchTargetBundle, "SwitchTargetAccountMismatch")
    const target = openTarget(context, vault, accounts.target_bundle_account)
    const targetPdas = target.pdas
    checkTargetPosition(context, target, owner, accounts.target_user_bundle_account)
    expectAddress("target_bundle_temp_data", accounts.target_bundle_temp_data, targetPdas.bundleTempData)
    expectAddress("target_pending_deposit_token_account", accounts.target_pending_deposit_token_account, targetPdas.pendingTokenAccount)
    expectAddress("target_pending_bundle_asset_authority", accounts.target_pending_bundle_asset_authority, targetPdas.pendingAuthority)
    expectAddress("target_treasury_account", accounts.target_treasury_account, target.bundle.treasuryAccount, "ConstraintAddress")
    const targetOracle = openOracle(context, target, accounts.target_oracle_data, false)
    const targetTemp = openTempData(context, target, accounts.target_bundle_temp_data)
    const targetUser = loadMut(context, "target_user_bundle_account", accounts.target_user_bundle_account, USER_BUNDLE)
    const referrer = openUserReferrer(context, vault, user, remainingAccounts(context, PROCESS_ACCOUNTS.length))
    checkTokenAccount(context, "user_token_account", accounts.user_token_account, bundle.assetAddress, owner)
    const now = nowOf(context)

    const shares = user.pendingShares
    ensure(shares > 0n, "NoPendingWithdrawal")
    ensure(now >= user.withdrawalAvailableTimestamp, "WithdrawalDelayNotMet")
    const valuation = valuationOf(bundle, oracle)
    const price = sharePrice(valuation)
    const gross = assetsFromShares(valuation, shares)
    ensure(gross <= bundle.bundleUnderlyingBalance, "InsufficientBundleBalance")
    const feeA = withdrawalFee(gross, resolveEffectiveFees(bundle, user).withdrawalFeeBps)
    const netToDestination = gross - feeA
    const { feeAmount: feeB, netAmount: credited } = depositFee(netToDestination, resolveEffectiveFees(target.bundle, targetUser).depositFeeBps)
    const fallbackReason = targetTemp.pausedDepositsWithdrawals
      ? FALLBACK_TARGET_PAUSED
      : target.bundle.maxDepositAmount > 0n &&
          totalEquity({ bundle: target.bundle, oracle: targetOracle }) + targetTemp.cumulativePendingDeposits + credited > target.bundle.maxDepositAmount
        ? FALLBACK_TARGET_CAP
        : null
    if (fallbackReason === null) ensure(!targetTemp.isNettingDone, "NettingAlreadyDone")

    const fromSource = (destination: string, amount: bigint) =>
      transferTokens(context, { source: pdas.assetTokenAccount, destination, authority: pdas.assetAuthority, amount }, pdas.assetAuthoritySeeds)
    fromSource(accounts.source_treasury_account, feeA)
    if (fallbackReason === null) {
      fromSource(accounts.target_treasury_account, feeB)
      fromSource(targetPdas.pendingTokenAccount, credited)
      if (targetUser.pendingDeposit === 0n) targetTemp.pendingDepositsCounter += 1n
      targetUser.pendingDeposit += credited
      targetUser.lastDepositTimestamp = now
      targetTemp.cumulativePendingDeposits += credited
    } else {
      fromSource(accounts.user_token_account, netToDestination)
    }

    const { totalSharesBefore, userSharesBefore } = settleRedemption(bundle, temp, user, referrer, { shares, gross, now })
    user.switchActive = false
    user.switchTargetBundle = ZERO_ADDRESS
    user.switchCreatedAt = 0n

    const common = {
      user: owner as Address,
      sourceBundle: vault.address as Address,
      targetBundle: target.address as Address,
      sharesRedeemed: shares,
      grossRedemption: gross,
      withdrawalFeeA: feeA,
      timestamp: now,
      sourceReferredNetDepositsAfter: referredAfter(referrer)
    }
    if (fallbackReason !== null) {
      emit(context, { name: "BundleSwitchFallbackToWallet", data: { ...common, netToWallet: netToDestination, reason: fallbackReason } })
      return
    }
    emit(context, {
      name: "BundleSwitchCompleted",
      data: {
        ...common,
        netToDestination,
        netCreditedToDestination: credited,
        depositFeeB: feeB,
        sharePrice: price,
        userSharesBefore,
        userSharesAfter: user.shares,
        totalSharesBefore,
        totalSharesAfter: bundle.totalShares
      }
    })
  }
}
