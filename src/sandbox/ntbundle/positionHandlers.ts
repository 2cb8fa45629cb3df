import type { Address } from "@solana/kit"
import { ACCOUNT_DISCRIMINATORS, USER_BUNDLE_ACCOUNT_SIZE } from "../../ntbundle/accounts.ts"
import { SYSTEM_PROGRAM_ID } from "../programs/ids.ts"
import { findUserBundlePda } from "../../ntbundle/pdas.ts"
import { expectAddress, fixed, isInitialized, load, mut, nowOf, readonlyAccount, REFERRER, resolveAccounts, signer, USER_BUNDLE } from "./accounts.ts"
import { anchorFail, ensure } from "./anchorErrors.ts"
import type { HandlerTable } from "./handler.ts"
import { addressBytes, isZeroKeyAt, type UserBundleView } from "./layout.ts"
import { createProgramAccount, emit, logInstruction } from "./support.ts"
import { isReferred, liveReferralRates, openBundle, openUserBundle, referrerAddress, userBundleAddress } from "./vault.ts"

/** initialize_bundle_depositor and set_user_referrer: opening a position and binding it to a builder. */
const USER_BUNDLE_SEED = new TextEncoder().encode("USER_BUNDLE")

const INITIALIZE_ACCOUNTS = [signer("payer"), signer("authority"), fixed("system_program", SYSTEM_PROGRAM_ID), mut("bundle_account"), mut("user_bundle_account")] as const

const SET_REFERRER_ACCOUNTS = [
  { name: "user", signer: true },
  readonlyAccount("bundle_account"),
  mut("user_bundle_account"),
  readonlyAccount("referrer_account"),
  readonlyAccount("referrer_user_bundle_account")
] as const

/** A position that never held or moved funds (facts §7 rule 5). */
const isVirgin = (user: UserBundleView): boolean =>
  user.shares === 0n &&
  user.pendingDeposit === 0n &&
  user.pendingShares === 0n &&
  user.estimatedPendingWithdrawalValue === 0n &&
  user.netDeposits === 0n &&
  user.totalFeeCharged === 0n &&
  user.lastDepositTimestamp === 0n

export const positionHandlers: HandlerTable = {
  initialize_bundle_depositor: (context) => {
    logInstruction(context, "initialize_bundle_depositor")
    const accounts = resolveAccounts(context, INITIALIZE_ACCOUNTS)
    const vault = openBundle(context, accounts.bundle_account, false)
    ensure(!vault.bundle.permissionned, "BundleIsPermissionned")
    ensure(accounts.payer === accounts.authority, "PayerNotAuthority")
    const [expected, bump] = findUserBundlePda(context.programId as Address, accounts.authority as Address, vault.address as Address)
    expectAddress("user_bundle_account", accounts.user_bundle_account, expected)
    const seeds = [USER_BUNDLE_SEED, addressBytes(accounts.authority), addressBytes(vault.address), Uint8Array.of(bump)]
    const data = createProgramAccount(context, accounts.payer, accounts.user_bundle_account, USER_BUNDLE_ACCOUNT_SIZE, seeds)
    data.set(ACCOUNT_DISCRIMINATORS.UserBundleAccount, 0)
    data.set(addressBytes(accounts.authority), 8)
    emit(context, { name: "BundleDepositorInitialized", data: { bundleDepositor: accounts.user_bundle_account as Address } })
  },

  set_user_referrer: (context) => {
    logInstruction(context, "set_user_referrer")
    const accounts = resolveAccounts(context, SET_REFERRER_ACCOUNTS)
    const vault = openBundle(context, accounts.bundle_account, false)
    const user = openUserBundle(context, vault, accounts.user, accounts.user_bundle_account)
    ensure(vault.bundle.referrerEnabled, "ReferralsDisabled")
    if (!isInitialized(context, accounts.referrer_account, REFERRER)) anchorFail("ReferrerAccountMissing")
    const referrer = load(context, "referrer_account", accounts.referrer_account, REFERRER)
    const wallet = referrer.referrer
    ensure(referrer.bundle === vault.address && accounts.referrer_account === referrerAddress(context, vault.address, wallet), "ReferrerAccountMismatch")
    ensure(!isZeroKeyAt(referrer.data, 40) && wallet !== vault.bundle.manager && wallet !== accounts.user, "UnauthorizedReferrerAction")
    ensure(!isReferred(user), "ReferralAlreadySet")
    ensure(isVirgin(user), "UserBundleAccountHasActivity")
    ensure(referrer.active, "UnauthorizedReferrerAction")
    expectAddress("referrer_user_bundle_account", accounts.referrer_user_bundle_account, userBundleAddress(context, wallet, vault.address))
    ensure(isInitialized(context, accounts.referrer_user_bundle_account, USER_BUNDLE), "ReferrerDepositTooLow")
    const referrerPosition = load(context, "referrer_user_bundle_account", accounts.referrer_user_bundle_account, USER_BUNDLE)
    ensure(referrerPosition.netDeposits >= vault.bundle.referrerMinDepositAmount, "ReferrerDepositTooLow")

    user.referrer = wallet
    const rates = liveReferralRates(vault.bundle, referrer)
    emit(context, {
      name: "UserReferrerSet",
      data: {
        user: accounts.user as Address,
        referrer: wallet as Address,
        bundleAccountKey: vault.address as Address,
        referralPfeeBps: rates.referralPfeeBps,
        referralMfeeBps: rates.referralMfeeBps,
        timestamp: nowOf(context),
        referralTierIndex: rates.referralTierIndex
      }
    })
  }
}
