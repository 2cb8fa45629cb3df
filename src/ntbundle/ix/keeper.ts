// Keeper-signed ntbundle instructions, for the sandbox chain and tooling (the public API never
// builds these). Account order and flags follow the IDL.
import type { AccountMeta, Address } from "@solana/kit"
import { encodeInstructionData } from "../instructions.ts"
import {
  deriveBundleAccounts,
  findAssociatedTokenAddress,
  findBundleAssetAuthorityPda,
  findBundleTempDataPda,
  findOraclePda,
  findReferrerPda,
  findUserBundlePda
} from "../pdas.ts"
import { SYSTEM_PROGRAM_ID, TOKEN_PROGRAM_ID } from "../programs.ts"
import { instruction, readonly, writable, writableSigner, type BuiltInstruction } from "./meta.ts"

interface KeeperTarget {
  readonly program: Address
  readonly bundle: Address
  readonly keeper: Address
  /**
   * Appended after the IDL accounts. The program updates a referred user's builder (referral
   * counters, accrued shares) without listing its ReferrerAccount in the IDL, so it presumably
   * arrives here; the exact rule is not documented.
   */
  readonly remainingAccounts?: ReadonlyArray<AccountMeta>
}

interface WithAssetMint {
  /** `bundle.assetAddress`. */
  readonly assetMint: Address
}

const withRemaining = (target: KeeperTarget, accounts: ReadonlyArray<AccountMeta>): ReadonlyArray<AccountMeta> =>
  target.remainingAccounts === undefined ? accounts : [...accounts, ...target.remainingAccounts]

/** Moves the cycle's pending deposits to the vault account and settles netting. */
export const netPendingTransactionsIx = (input: KeeperTarget & WithAssetMint): BuiltInstruction => {
  const derived = deriveBundleAccounts(input.program, input.bundle, input.assetMint)
  return instruction(
    input.program,
    withRemaining(input, [
      writableSigner(input.keeper),
      writable(input.bundle),
      writable(derived.pendingDepositTokenAccount),
      writable(derived.bundleAssetTokenAccount),
      writable(input.assetMint),
      writable(derived.pendingBundleAssetAuthority),
      writable(derived.oracleData),
      writable(derived.bundleTempData),
      writable(derived.bundleAssetAuthority),
      readonly(TOKEN_PROGRAM_ID)
    ]),
    encodeInstructionData({ name: "net_pending_transactions", args: {} })
  )
}

/** Mints shares for `owner`'s netted deposit. */
export const processDepositIx = (
  input: KeeperTarget & WithAssetMint & { readonly owner: Address }
): BuiltInstruction => {
  const derived = deriveBundleAccounts(input.program, input.bundle, input.assetMint)
  return instruction(
    input.program,
    withRemaining(input, [
      writableSigner(input.keeper),
      writable(findUserBundlePda(input.program, input.owner, input.bundle)[0]),
      writable(derived.pendingDepositTokenAccount),
      readonly(input.owner),
      writable(input.assetMint),
      writable(derived.bundleAssetTokenAccount),
      writable(input.bundle),
      writable(derived.bundleTempData),
      writable(derived.oracleData),
      writable(derived.pendingBundleAssetAuthority),
      writable(derived.bundleAssetAuthority),
      readonly(TOKEN_PROGRAM_ID),
      readonly(SYSTEM_PROGRAM_ID)
    ]),
    encodeInstructionData({ name: "process_deposit", args: {} })
  )
}

/** Pays out `owner`'s matured withdrawal (withdrawal fee to the treasury). */
export const processWithdrawalIx = (
  input: KeeperTarget &
    WithAssetMint & {
      readonly owner: Address
      /** `bundle.treasuryAccount`. */
      readonly treasury: Address
      /** Payout destination; defaults to the owner's ATA for the asset mint. */
      readonly userTokenAccount?: Address
    }
): BuiltInstruction => {
  const derived = deriveBundleAccounts(input.program, input.bundle, input.assetMint)
  return instruction(
    input.program,
    withRemaining(input, [
      writableSigner(input.keeper),
      readonly(input.owner),
      writable(input.userTokenAccount ?? findAssociatedTokenAddress(input.owner, input.assetMint)[0]),
      writable(input.assetMint),
      writable(derived.bundleAssetTokenAccount),
      writable(derived.pendingBundleAssetAuthority),
      writable(findUserBundlePda(input.program, input.owner, input.bundle)[0]),
      writable(input.treasury),
      writable(derived.bundleAssetAuthority),
      writable(input.bundle),
      writable(derived.bundleTempData),
      writable(derived.oracleData),
      readonly(TOKEN_PROGRAM_ID),
      readonly(SYSTEM_PROGRAM_ID)
    ]),
    encodeInstructionData({ name: "process_withdrawal", args: {} })
  )
}

/** Settles a builder's matured claim: the payout transaction of builder reporting. */
export const processReferrerWithdrawalIx = (
  input: KeeperTarget &
    WithAssetMint & {
      readonly referrer: Address
      /** Payout destination; defaults to the referrer's ATA for the asset mint. */
      readonly referrerTokenAccount?: Address
    }
): BuiltInstruction => {
  const derived = deriveBundleAccounts(input.program, input.bundle, input.assetMint)
  return instruction(
    input.program,
    withRemaining(input, [
      writableSigner(input.keeper),
      readonly(input.referrer),
      writable(input.referrerTokenAccount ?? findAssociatedTokenAddress(input.referrer, input.assetMint)[0]),
      writable(input.assetMint),
      writable(derived.bundleAssetTokenAccount),
      writable(input.bundle),
      writable(derived.oracleData),
      writable(derived.bundleTempData),
      writable(derived.bundleAssetAuthority),
      writable(findReferrerPda(input.program, input.bundle, input.referrer)[0]),
      readonly(TOKEN_PROGRAM_ID)
    ]),
    encodeInstructionData({ name: "process_referrer_withdrawal", args: {} })
  )
}

/** Charges management and performance fees to `owner`'s position. */
export const applyFeesToUserIx = (input: KeeperTarget & { readonly owner: Address }): BuiltInstruction =>
  instruction(
    input.program,
    withRemaining(input, [
      writableSigner(input.keeper),
      writable(input.owner),
      writable(findUserBundlePda(input.program, input.owner, input.bundle)[0]),
      writable(input.bundle),
      writable(findOraclePda(input.program, input.bundle)[0]),
      writable(findBundleAssetAuthorityPda(input.program, input.bundle)[0])
    ]),
    encodeInstructionData({ name: "apply_fees_to_user", args: {} })
  )

/** Reports the equity deployed outside the vault account. */
export const updateOracleIx = (input: KeeperTarget & { readonly newEquity: bigint }): BuiltInstruction =>
  instruction(
    input.program,
    withRemaining(input, [
      writableSigner(input.keeper),
      writable(input.bundle),
      writable(findBundleTempDataPda(input.program, input.bundle)[0]),
      writable(findOraclePda(input.program, input.bundle)[0])
    ]),
    encodeInstructionData({ name: "update_oracle", args: { newEquity: input.newEquity } })
  )

/** Returns `owner`'s pending deposit. */
export const refundDepositIx = (
  input: KeeperTarget &
    WithAssetMint & {
      readonly owner: Address
      /** Refund destination; defaults to the owner's ATA for the asset mint. */
      readonly userTokenAccount?: Address
    }
): BuiltInstruction => {
  const derived = deriveBundleAccounts(input.program, input.bundle, input.assetMint)
  return instruction(
    input.program,
    withRemaining(input, [
      writableSigner(input.keeper),
      writable(findUserBundlePda(input.program, input.owner, input.bundle)[0]),
      readonly(input.owner),
      writable(input.userTokenAccount ?? findAssociatedTokenAddress(input.owner, input.assetMint)[0]),
      writable(input.assetMint),
      writable(derived.bundleAssetTokenAccount),
      writable(derived.bundleAssetAuthority),
      writable(input.bundle),
      writable(derived.bundleTempData),
      readonly(TOKEN_PROGRAM_ID),
      readonly(SYSTEM_PROGRAM_ID)
    ]),
    encodeInstructionData({ name: "refund_deposit", args: {} })
  )
}
