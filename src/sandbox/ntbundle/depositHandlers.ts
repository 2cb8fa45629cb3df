import type { Address } from "@solana/kit"
import { depositFee, estimateSharesForNetDeposit, resolveEffectiveFees, sharePrice, totalEquity } from "../../ntbundle/math.ts"
import { SYSTEM_PROGRAM_ID, TOKEN_PROGRAM_ID } from "../programs/ids.ts"
import { fixed, mut, nowOf, readonlyAccount, remainingAccounts, resolveAccounts, signer } from "./accounts.ts"
import { ensure } from "./anchorErrors.ts"
import type { HandlerTable } from "./handler.ts"
import { checkTokenAccount, emit, logInstruction, transferTokens, valuationOf } from "./support.ts"
import {
  expectVaultAccounts,
  openBundle,
  openForKeeper,
  openOracle,
  openTempData,
  openUserBundle,
  openUserReferrer,
  referredAfter,
  requireFreshOracle,
  settleDepositCycle
} from "./vault.ts"

/**
 * The deposit cycle: request (fee to the treasury, net to the pending account) -> netting (the
 * cycle's pending tokens move to the vault's asset account; new requests wait, NettingAlreadyDone)
 * -> process_deposit per user (shares minted at the current price) or refund_deposit (tokens back
 * from the vault's asset account, which is why refunds only follow netting).
 */
const REQUEST_ACCOUNTS = [
  signer("user"),
  mut("user_token_account"),
  mut("pending_deposit_token_account"),
  mut("treasury_account"),
  mut("user_bundle_account"),
  mut("asset_address"),
  mut("oracle_data"),
  mut("bundle_temp_data"),
  mut("bundle_account"),
  mut("pending_bundle_asset_authority"),
  fixed("token_program", TOKEN_PROGRAM_ID),
  fixed("system_program", SYSTEM_PROGRAM_ID)
] as const

const NET_ACCOUNTS = [
  signer("keeper"),
  mut("bundle_account"),
  mut("pending_deposit_token_account"),
  mut("bundle_asset_account"),
  mut("asset_address"),
  mut("pending_bundle_asset_authority"),
  mut("oracle_data"),
  mut("bundle_temp_data"),
  mut("bundle_asset_authority"),
  fixed("token_program", TOKEN_PROGRAM_ID)
] as const

const PROCESS_ACCOUNTS = [
  signer("keeper"),
  mut("user_bundle_account"),
  mut("pending_deposit_token_account"),
  readonlyAccount("user_bundle_account_owner"),
  mut("asset_address"),
  mut("bundle_asset_account"),
  mut("bundle_account"),
  mut("bundle_temp_data"),
  mut("oracle_data"),
  mut("pending_bundle_asset_authority"),
  mut("bundle_asset_authority"),
  fixed("token_program", TOKEN_PROGRAM_ID),
  fixed("system_program", SYSTEM_PROGRAM_ID)
] as const

const REFUND_ACCOUNTS = [
  signer("keeper"),
  mut("user_bundle_account"),
  readonlyAccount("user_bundle_account_owner"),
  mut("user_token_account"),
  mut("asset_address"),
  mut("bundle_asset_account"),
  mut("bundle_asset_authority"),
  mut("bundle_account"),
  mut("bundle_temp_data"),
  fixed("token_program", TOKEN_PROGRAM_ID),
  fixed("system_program", SYSTEM_PROGRAM_ID)
] as const

export const depositHandlers: HandlerTable = {
  request_deposit: (context, { amount }) => {
    logInstruction(context, "request_deposit")
    const accounts = resolveAccounts(context, REQUEST_ACCOUNTS)
    const vault = openBundle(context, accounts.bundle_account, true)
    const { bundle } = vault
    expectVaultAccounts(vault, accounts)
    const oracle = openOracle(context, vault, accounts.oracle_data)
    const temp = openTempData(context, vault, accounts.bundle_temp_data)
    const user = openUserBundle(context, vault, accounts.user, accounts.user_bundle_account)
    const now = nowOf(context)

    ensure(amount > 0n, "DepositAmountZero")
    ensure(!temp.pausedDepositsWithdrawals, "PausedDepositsWithdrawals")
    ensure(!temp.isNettingDone, "NettingAlreadyDone")
    requireFreshOracle(bundle, oracle, now)
    ensure(amount >= bundle.minDepositAmount, "MinDepositAmountNotMet")
    const { feeAmount, netAmount } = depositFee(amount, resolveEffectiveFees(bundle, user).depositFeeBps)
    if (bundle.maxDepositAmount > 0n) {
      ensure(totalEquity({ bundle, oracle }) + temp.cumulativePendingDeposits + netAmount <= bundle.maxDepositAmount, "MaxDepositAmountExceeded")
    }
    checkTokenAccount(context, "user_token_account", accounts.user_token_account, bundle.assetAddress, accounts.user)

    transferTokens(context, { source: accounts.user_token_account, destination: accounts.treasury_account, authority: accounts.user, amount: feeAmount })
    transferTokens(context, { source: accounts.user_token_account, destination: accounts.pending_deposit_token_account, authority: accounts.user, amount: netAmount })
    const toppingUp = user.pendingDeposit > 0n
    user.pendingDeposit += netAmount
    user.lastDepositTimestamp = now
    temp.cumulativePendingDeposits += netAmount
    if (!toppingUp) temp.pendingDepositsCounter += 1n

    emit(context, {
      name: "DepositRequested",
      data: {
        user: accounts.user as Address,
        amount,
        timestamp: now,
        bundleAccountKey: vault.address as Address,
        toppingUp,
        grossAmount: amount,
        feeAmount,
        netAmount,
        assetMint: bundle.assetAddress as Address
      }
    })
  },

  net_pending_transactions: (context) => {
    const { accounts, vault } = openForKeeper(context, "net_pending_transactions", NET_ACCOUNTS)
    const { bundle, pdas } = vault
    const oracle = openOracle(context, vault, accounts.oracle_data)
    const temp = openTempData(context, vault, accounts.bundle_temp_data)
    const now = nowOf(context)

    ensure(!temp.isNettingDone, "NettingAlreadyDone")
    ensure(temp.pendingDepositsCounter > 0n, "NoPendingTransactions")
    requireFreshOracle(bundle, oracle, now)
    transferTokens(
      context,
      { source: pdas.pendingTokenAccount, destination: pdas.assetTokenAccount, authority: pdas.pendingAuthority, amount: temp.cumulativePendingDeposits },
      pdas.pendingAuthoritySeeds
    )
    temp.isNettingDone = true
    temp.lastNettingTimestamp = now
    temp.allocatedShares = 0n
    emit(context, { name: "NettingCompleted", data: { timestamp: now, bundleAccountKey: vault.address as Address } })
  },

  process_deposit: (context) => {
    const { accounts, vault } = openForKeeper(context, "process_deposit", PROCESS_ACCOUNTS)
    const { bundle, pdas } = vault
    const oracle = openOracle(context, vault, accounts.oracle_data)
    const temp = openTempData(context, vault, accounts.bundle_temp_data)
    const user = openUserBundle(context, vault, accounts.user_bundle_account_owner, accounts.user_bundle_account)
    const referrer = openUserReferrer(context, vault, user, remainingAccounts(context, PROCESS_ACCOUNTS.length))
    const now = nowOf(context)

    ensure(temp.isNettingDone, "NettingNotDone")
    const net = user.pendingDeposit
    ensure(net > 0n, "PendingDepositAmountZero")
    const valuation = valuationOf(bundle, oracle)
    const price = sharePrice(valuation)
    const minted = estimateSharesForNetDeposit(valuation, net)
    const sharesBefore = user.shares

    bundle.bundleUnderlyingBalance += net
    bundle.totalShares += minted
    user.shares += minted
    user.pendingDeposit = 0n
    user.netDeposits += net
    if (user.lastManagementFeeTimestamp === 0n) user.lastManagementFeeTimestamp = now
    if (user.hwmPerShare === 0n) user.hwmPerShare = price
    if (referrer !== null) referrer.referredNetDeposits += net
    temp.cumulativePendingDeposits -= net
    temp.pendingDepositsCounter -= 1n
    temp.allocatedShares += minted
    settleDepositCycle(temp)

    emit(context, {
      name: "Allocated",
      data: {
        from: pdas.pendingTokenAccount as Address,
        to: pdas.assetTokenAccount as Address,
        amount: net,
        timestamp: now,
        bundleAccountKey: vault.address as Address,
        netAmount: net,
        sharePrice: price,
        userSharesBefore: sharesBefore,
        userSharesAfter: user.shares,
        totalShares: bundle.totalShares,
        referredNetDepositsAfter: referredAfter(referrer)
      }
    })
  },

  refund_deposit: (context) => {
    const { accounts, vault } = openForKeeper(context, "refund_deposit", REFUND_ACCOUNTS)
    const { bundle, pdas } = vault
    const temp = openTempData(context, vault, accounts.bundle_temp_data)
    const owner = accounts.user_bundle_account_owner
    const user = openUserBundle(context, vault, owner, accounts.user_bundle_account)
    const referrer = openUserReferrer(context, vault, user, remainingAccounts(context, REFUND_ACCOUNTS.length))
    checkTokenAccount(context, "user_token_account", accounts.user_token_account, bundle.assetAddress, owner)

    ensure(temp.isNettingDone, "NettingNotDone")
    const amount = user.pendingDeposit
    ensure(amount > 0n, "PendingDepositAmountZero")
    transferTokens(context, { source: pdas.assetTokenAccount, destination: accounts.user_token_account, authority: pdas.assetAuthority, amount }, pdas.assetAuthoritySeeds)
    user.pendingDeposit = 0n
    temp.cumulativePendingDeposits -= amount
    temp.pendingDepositsCounter -= 1n
    settleDepositCycle(temp)

    emit(context, {
      name: "RefundedDeposit",
      data: { user: owner as Address, amount, timestamp: nowOf(context), bundleAccountKey: vault.address as Address, referredNetDepositsAfter: referredAfter(referrer) }
    })
  }
}
