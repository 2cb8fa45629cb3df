import type { Address } from "@solana/kit"
import { MAX_REFERRAL_TIERS, REFERRAL_OVERRIDE_MFEE, REFERRAL_OVERRIDE_PFEE } from "../../ntbundle/math.ts"
import { expectAddress, loadMut, mut, nowOf, readonlyAccount, REFERRER, resolveAccounts, signer } from "./accounts.ts"
import { anchorFail, ensure } from "./anchorErrors.ts"
import type { HandlerTable } from "./handler.ts"
import { writeTiers } from "./layout.ts"
import { emit, logInstruction } from "./support.ts"
import { openBundle, openOracle, openTempData, referrerAddress, requireManager, type OpenVault } from "./vault.ts"

/**
 * Manager configuration the scenarios use. Rules the real program does not document, as modelled:
 * tier schedules hold at most 5 tiers with strictly increasing thresholds and rates ≤ 10000 bps
 * (the SDK's validation); `set_referrer_rate_override` REPLACES the override flags with the mask
 * (a bit outside the mask is cleared and its custom rate zeroed), so a mask of 0 clears both;
 * pausing may be signed by the keeper or the manager, and pausing a paused vault (or resuming a
 * running one) fails with PausedDepositsWithdrawals / UnpausedDepositsWithdrawals.
 */
const MANAGER_BUNDLE_ACCOUNTS = [signer("manager"), mut("bundle_account")] as const
const MANAGER_REFERRER_ACCOUNTS = [signer("manager"), readonlyAccount("bundle_account"), mut("referrer_account")] as const
const PAUSE_ACCOUNTS = [signer("keeper"), mut("bundle_account"), mut("bundle_temp_data"), mut("oracle_data")] as const
const MAX_BPS = 10_000

const openReferrer = (context: Parameters<typeof loadMut>[0], vault: OpenVault, address: string) => {
  const referrer = loadMut(context, "referrer_account", address, REFERRER)
  ensure(referrer.bundle === vault.address, "ReferrerAccountMismatch")
  expectAddress("referrer_account", address, referrerAddress(context, vault.address, referrer.referrer))
  return referrer
}

export const managerHandlers: HandlerTable = {
  set_referrer_config: (context, { referrerEnabled, referrerMinDepositAmount }) => {
    logInstruction(context, "set_referrer_config")
    const accounts = resolveAccounts(context, MANAGER_BUNDLE_ACCOUNTS)
    const vault = openBundle(context, accounts.bundle_account, true)
    requireManager(vault, accounts.manager)
    vault.bundle.referrerEnabled = referrerEnabled
    vault.bundle.referrerMinDepositAmount = referrerMinDepositAmount
    emit(context, {
      name: "ReferrerConfigSet",
      data: { manager: accounts.manager as Address, bundleAccountKey: vault.address as Address, referrerEnabled, referrerMinDepositAmount, timestamp: nowOf(context) }
    })
  },

  set_referral_tier_config: (context, { referralTiers }) => {
    logInstruction(context, "set_referral_tier_config")
    const accounts = resolveAccounts(context, MANAGER_BUNDLE_ACCOUNTS)
    const vault = openBundle(context, accounts.bundle_account, true)
    requireManager(vault, accounts.manager)
    ensure(referralTiers.length <= MAX_REFERRAL_TIERS, "InvalidReferralTierConfig")
    referralTiers.forEach((tier, index) => {
      const previous = referralTiers[index - 1]
      if (tier.pfeeBps > MAX_BPS || tier.mfeeBps > MAX_BPS || (previous !== undefined && tier.threshold <= previous.threshold)) {
        anchorFail("InvalidReferralTierConfig")
      }
    })
    writeTiers(vault.bundle, referralTiers)
    emit(context, {
      name: "ReferralTierConfigSet",
      data: {
        manager: accounts.manager as Address,
        bundleAccountKey: vault.address as Address,
        tierCount: referralTiers.length,
        referralTiers,
        timestamp: nowOf(context)
      }
    })
  },

  set_referrer_active: (context, { active }) => {
    logInstruction(context, "set_referrer_active")
    const accounts = resolveAccounts(context, MANAGER_REFERRER_ACCOUNTS)
    const vault = openBundle(context, accounts.bundle_account, false)
    requireManager(vault, accounts.manager)
    const referrer = openReferrer(context, vault, accounts.referrer_account)
    referrer.active = active
    emit(context, {
      name: "ReferrerActiveSet",
      data: {
        manager: accounts.manager as Address,
        referrer: referrer.referrer as Address,
        bundleAccountKey: vault.address as Address,
        active,
        timestamp: nowOf(context)
      }
    })
  },

  set_referrer_rate_override: (context, { overrideMask, customPfeeBps, customMfeeBps }) => {
    logInstruction(context, "set_referrer_rate_override")
    const accounts = resolveAccounts(context, MANAGER_REFERRER_ACCOUNTS)
    const vault = openBundle(context, accounts.bundle_account, false)
    requireManager(vault, accounts.manager)
    const referrer = openReferrer(context, vault, accounts.referrer_account)
    const known = REFERRAL_OVERRIDE_PFEE | REFERRAL_OVERRIDE_MFEE
    ensure((overrideMask & ~known) === 0 && customPfeeBps <= MAX_BPS && customMfeeBps <= MAX_BPS, "InvalidReferralConfig")
    const previousFlags = referrer.rateOverrideFlags
    referrer.rateOverrideFlags = overrideMask
    referrer.customPfeeBps = (overrideMask & REFERRAL_OVERRIDE_PFEE) !== 0 ? customPfeeBps : 0
    referrer.customMfeeBps = (overrideMask & REFERRAL_OVERRIDE_MFEE) !== 0 ? customMfeeBps : 0
    emit(context, {
      name: "ReferrerRateOverrideSet",
      data: {
        manager: accounts.manager as Address,
        referrer: referrer.referrer as Address,
        bundleAccountKey: vault.address as Address,
        overrideMask,
        previousFlags,
        newFlags: overrideMask,
        customPfeeBps: referrer.customPfeeBps,
        customMfeeBps: referrer.customMfeeBps,
        timestamp: nowOf(context)
      }
    })
  },

  pause_deposits_withdrawals: (context, { pause }) => {
    logInstruction(context, "pause_deposits_withdrawals")
    const accounts = resolveAccounts(context, PAUSE_ACCOUNTS)
    const vault = openBundle(context, accounts.bundle_account, true)
    ensure(accounts.keeper === vault.bundle.keeper || accounts.keeper === vault.bundle.manager, "UnauthorizedKeeperAction")
    const temp = openTempData(context, vault, accounts.bundle_temp_data)
    openOracle(context, vault, accounts.oracle_data)
    ensure(temp.pausedDepositsWithdrawals !== pause, pause ? "PausedDepositsWithdrawals" : "UnpausedDepositsWithdrawals")
    temp.pausedDepositsWithdrawals = pause
    emit(context, { name: "PausedDepositsWithdrawals", data: { paused: pause, bundleAccountKey: vault.address as Address } })
  }
}
