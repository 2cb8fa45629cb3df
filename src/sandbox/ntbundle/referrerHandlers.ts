import type { Address } from "@solana/kit"
import { ACCOUNT_DISCRIMINATORS, REFERRER_ACCOUNT_SIZE } from "../../ntbundle/accounts.ts"
import { assetsFromShares, bundleCooldownCurve, cooldownSeconds, withdrawalAvailableAt } from "../../ntbundle/math.ts"
import { findReferrerPda } from "../../ntbundle/pdas.ts"
import { SYSTEM_PROGRAM_ID, TOKEN_PROGRAM_ID } from "../programs/ids.ts"
import { expectAddress, fixed, isInitialized, load, loadMut, mut, nowOf, readonlyAccount, REFERRER, resolveAccounts, signer, USER_BUNDLE } from "./accounts.ts"
import { ensure } from "./anchorErrors.ts"
import type { HandlerTable } from "./handler.ts"
import { addressBytes, referrerView } from "./layout.ts"
import { checkTokenAccount, createProgramAccount, emit, logInstruction, transferTokens, valuationOf } from "./support.ts"
import { openBundle, openForKeeper, openOracle, openTempData, referrerAddress, userBundleAddress } from "./vault.ts"

/**
 * Builders: registration (creates the ReferrerAccount), the claim request (all accrued shares
 * move to `pending_withdraw_shares`: they keep counting in `total_shares` but stop growing, and
 * fees charged during the cooldown accrue afresh) and the keeper's settlement (burns the claimed
 * shares and pays their value at the settlement-time price, with no withdrawal fee: the event has
 * no fee field).
 */
const REFERRER_SEED = new TextEncoder().encode("REFERRER")

const REGISTER_ACCOUNTS = [
  signer("referrer"),
  mut("referrer_account"),
  readonlyAccount("bundle_account"),
  readonlyAccount("referrer_user_bundle_account"),
  fixed("system_program", SYSTEM_PROGRAM_ID)
] as const

const CLAIM_ACCOUNTS = [signer("referrer"), readonlyAccount("bundle_account"), mut("oracle_data"), mut("bundle_temp_data"), mut("referrer_account")] as const

const SETTLE_ACCOUNTS = [
  signer("keeper"),
  readonlyAccount("referrer"),
  mut("referrer_token_account"),
  mut("asset_address"),
  mut("bundle_asset_account"),
  mut("bundle_account"),
  mut("oracle_data"),
  mut("bundle_temp_data"),
  mut("bundle_asset_authority"),
  mut("referrer_account"),
  fixed("token_program", TOKEN_PROGRAM_ID)
] as const

export const referrerHandlers: HandlerTable = {
  register_referrer: (context) => {
    logInstruction(context, "register_referrer")
    const accounts = resolveAccounts(context, REGISTER_ACCOUNTS)
    const vault = openBundle(context, accounts.bundle_account, false)
    const wallet = accounts.referrer
    ensure(vault.bundle.referrerEnabled, "ReferralsDisabled")
    ensure(wallet !== vault.bundle.manager && wallet !== SYSTEM_PROGRAM_ID, "UnauthorizedReferrerAction")
    const [expected, bump] = findReferrerPda(context.programId as Address, vault.address as Address, wallet as Address)
    expectAddress("referrer_account", accounts.referrer_account, expected)
    expectAddress("referrer_user_bundle_account", accounts.referrer_user_bundle_account, userBundleAddress(context, wallet, vault.address))
    ensure(isInitialized(context, accounts.referrer_user_bundle_account, USER_BUNDLE), "ReferrerDepositTooLow")
    const position = load(context, "referrer_user_bundle_account", accounts.referrer_user_bundle_account, USER_BUNDLE)
    ensure(position.netDeposits >= vault.bundle.referrerMinDepositAmount, "ReferrerDepositTooLow")

    const seeds = [REFERRER_SEED, addressBytes(vault.address), addressBytes(wallet), Uint8Array.of(bump)]
    const data = createProgramAccount(context, wallet, accounts.referrer_account, REFERRER_ACCOUNT_SIZE, seeds)
    data.set(ACCOUNT_DISCRIMINATORS.ReferrerAccount, 0)
    const referrer = referrerView(data)
    referrer.bundle = vault.address
    referrer.referrer = wallet
    referrer.active = true
    referrer.bump = bump
    emit(context, { name: "ReferrerRegistered", data: { referrer: wallet as Address, bundleAccountKey: vault.address as Address, timestamp: nowOf(context) } })
  },

  referrer_request_withdraw: (context) => {
    logInstruction(context, "referrer_request_withdraw")
    const accounts = resolveAccounts(context, CLAIM_ACCOUNTS)
    const vault = openBundle(context, accounts.bundle_account, false)
    const { bundle } = vault
    const oracle = openOracle(context, vault, accounts.oracle_data)
    const temp = openTempData(context, vault, accounts.bundle_temp_data)
    expectAddress("referrer_account", accounts.referrer_account, referrerAddress(context, vault.address, accounts.referrer))
    const referrer = loadMut(context, "referrer_account", accounts.referrer_account, REFERRER)
    const now = nowOf(context)

    ensure(referrer.referrer === accounts.referrer, "UnauthorizedReferrerAction")
    ensure(!temp.pausedDepositsWithdrawals, "PausedDepositsWithdrawals")
    ensure(referrer.pendingWithdrawShares === 0n, "PendingWithdrawalExists")
    const shares = referrer.accruedPfeeShares + referrer.accruedMfeeShares
    ensure(shares > 0n, "ReferrerSharesZero")
    const estimatedValue = assetsFromShares(valuationOf(bundle, oracle), shares)
    ensure(estimatedValue > 0n, "RedemptionAmountZero")
    const availableAt = withdrawalAvailableAt(now, cooldownSeconds(bundleCooldownCurve(bundle), shares, bundle.totalShares), bundle)

    referrer.pendingWithdrawShares = shares
    referrer.accruedPfeeShares = 0n
    referrer.accruedMfeeShares = 0n
    referrer.estimatedPendingWithdrawalValue = estimatedValue
    referrer.withdrawalAvailableTimestamp = availableAt
    emit(context, {
      name: "ReferrerWithdrawalRequested",
      data: {
        referrer: accounts.referrer as Address,
        bundleAccountKey: vault.address as Address,
        shares,
        estimatedPendingWithdrawalValue: estimatedValue,
        cooldownEndTimestamp: availableAt,
        timestamp: now
      }
    })
  },

  process_referrer_withdrawal: (context) => {
    const { accounts, vault } = openForKeeper(context, "process_referrer_withdrawal", SETTLE_ACCOUNTS)
    const { bundle, pdas } = vault
    const oracle = openOracle(context, vault, accounts.oracle_data)
    openTempData(context, vault, accounts.bundle_temp_data)
    expectAddress("referrer_account", accounts.referrer_account, referrerAddress(context, vault.address, accounts.referrer))
    const referrer = loadMut(context, "referrer_account", accounts.referrer_account, REFERRER)
    ensure(referrer.referrer === accounts.referrer && referrer.bundle === vault.address, "ReferrerAccountMismatch")
    checkTokenAccount(context, "referrer_token_account", accounts.referrer_token_account, bundle.assetAddress, accounts.referrer)
    const now = nowOf(context)

    const shares = referrer.pendingWithdrawShares
    ensure(shares > 0n, "NoPendingWithdrawal")
    ensure(now >= referrer.withdrawalAvailableTimestamp, "WithdrawalDelayNotMet")
    const redemption = assetsFromShares(valuationOf(bundle, oracle), shares)
    ensure(redemption <= bundle.bundleUnderlyingBalance, "InsufficientBundleBalance")

    transferTokens(
      context,
      { source: pdas.assetTokenAccount, destination: accounts.referrer_token_account, authority: pdas.assetAuthority, amount: redemption },
      pdas.assetAuthoritySeeds
    )
    bundle.bundleUnderlyingBalance -= redemption
    bundle.totalShares -= shares
    referrer.pendingWithdrawShares = 0n
    referrer.estimatedPendingWithdrawalValue = 0n
    referrer.withdrawalAvailableTimestamp = 0n
    referrer.lastWithdrawalProcessTimestamp = now
    emit(context, {
      name: "ReferrerWithdrawalProcessed",
      data: {
        referrer: accounts.referrer as Address,
        bundleAccountKey: vault.address as Address,
        sharesRedeemed: shares,
        redemptionAmount: redemption,
        timestamp: now,
        accruedPfeeSharesAfter: referrer.accruedPfeeShares,
        accruedMfeeSharesAfter: referrer.accruedMfeeShares
      }
    })
  }
}
