// ntbundle instructions a depositor or builder signs. Account order and flags follow the IDL;
// program-derived accounts are derived here (memoised) from the semantic inputs.
import type { Address } from "@solana/kit"
import { noArgsData, u128ArgData, u64ArgData } from "./argsData.ts"
import {
  deriveBundleAccounts,
  findAssociatedTokenAddress,
  findOraclePda,
  findBundleTempDataPda,
  findReferrerPda,
  findUserBundlePda
} from "../pdas.ts"
import { RENT_SYSVAR_ID, SYSTEM_PROGRAM_ID, TOKEN_PROGRAM_ID } from "../programs.ts"
import { instruction, readonly, readonlySigner, writable, writableSigner, type BuiltInstruction } from "./meta.ts"

interface BundleTarget {
  /** The ntbundle program the bundle lives under (mainnet, devnet, ...). */
  readonly program: Address
  readonly bundle: Address
}

/** Creates the user's UserBundleAccount. In public flows payer and authority are both the user. */
export const initializeBundleDepositorIx = (
  input: BundleTarget & { readonly payer: Address; readonly authority: Address }
): BuiltInstruction =>
  instruction(
    input.program,
    [
      writableSigner(input.payer),
      writableSigner(input.authority),
      readonly(SYSTEM_PROGRAM_ID),
      writable(input.bundle),
      writable(findUserBundlePda(input.program, input.authority, input.bundle)[0])
    ],
    noArgsData("initialize_bundle_depositor")
  )

/** Binds the user's position to a builder (permanent). The referrer's own position must exist. */
export const setUserReferrerIx = (
  input: BundleTarget & { readonly user: Address; readonly referrer: Address }
): BuiltInstruction =>
  instruction(
    input.program,
    [
      readonlySigner(input.user),
      readonly(input.bundle),
      writable(findUserBundlePda(input.program, input.user, input.bundle)[0]),
      readonly(findReferrerPda(input.program, input.bundle, input.referrer)[0]),
      readonly(findUserBundlePda(input.program, input.referrer, input.bundle)[0])
    ],
    noArgsData("set_user_referrer")
  )

export interface RequestDepositInput extends BundleTarget {
  readonly user: Address
  /** `bundle.assetAddress`. */
  readonly assetMint: Address
  /** `bundle.treasuryAccount`: receives the deposit fee. */
  readonly treasury: Address
  /** Gross amount in raw asset units. */
  readonly amount: bigint
  /** Source of funds; defaults to the user's ATA for the asset mint. */
  readonly userTokenAccount?: Address | undefined
}

export const requestDepositIx = (input: RequestDepositInput): BuiltInstruction => {
  const derived = deriveBundleAccounts(input.program, input.bundle, input.assetMint)
  const userTokenAccount = input.userTokenAccount ?? findAssociatedTokenAddress(input.user, input.assetMint)[0]
  return instruction(
    input.program,
    [
      writableSigner(input.user),
      writable(userTokenAccount),
      writable(derived.pendingDepositTokenAccount),
      writable(input.treasury),
      writable(findUserBundlePda(input.program, input.user, input.bundle)[0]),
      writable(input.assetMint),
      writable(derived.oracleData),
      writable(derived.bundleTempData),
      writable(input.bundle),
      writable(derived.pendingBundleAssetAuthority),
      readonly(TOKEN_PROGRAM_ID),
      readonly(SYSTEM_PROGRAM_ID)
    ],
    u64ArgData("request_deposit", input.amount)
  )
}

/** Requests redemption of `sharesAmount` shares (shares, not tokens). */
export const requestWithdrawalIx = (
  input: BundleTarget & { readonly user: Address; readonly sharesAmount: bigint }
): BuiltInstruction =>
  instruction(
    input.program,
    [
      writableSigner(input.user),
      writable(findUserBundlePda(input.program, input.user, input.bundle)[0]),
      writable(input.bundle),
      writable(findOraclePda(input.program, input.bundle)[0]),
      writable(findBundleTempDataPda(input.program, input.bundle)[0]),
      readonly(TOKEN_PROGRAM_ID),
      readonly(SYSTEM_PROGRAM_ID),
      readonly(RENT_SYSVAR_ID)
    ],
    u128ArgData("request_withdrawal", input.sharesAmount)
  )

/** Creates the builder's ReferrerAccount; the builder's own UserBundleAccount must already exist. */
export const registerReferrerIx = (input: BundleTarget & { readonly referrer: Address }): BuiltInstruction =>
  instruction(
    input.program,
    [
      writableSigner(input.referrer),
      writable(findReferrerPda(input.program, input.bundle, input.referrer)[0]),
      readonly(input.bundle),
      readonly(findUserBundlePda(input.program, input.referrer, input.bundle)[0]),
      readonly(SYSTEM_PROGRAM_ID)
    ],
    noArgsData("register_referrer")
  )

/** The builder's claim request: redeems all accrued referral shares after a cooldown. */
export const referrerRequestWithdrawIx = (input: BundleTarget & { readonly referrer: Address }): BuiltInstruction =>
  instruction(
    input.program,
    [
      writableSigner(input.referrer),
      readonly(input.bundle),
      writable(findOraclePda(input.program, input.bundle)[0]),
      writable(findBundleTempDataPda(input.program, input.bundle)[0]),
      writable(findReferrerPda(input.program, input.bundle, input.referrer)[0])
    ],
    noArgsData("referrer_request_withdraw")
  )

/**
 * Asks to move `sharesAmount` shares of `bundle` into `targetBundle` (same asset mint): the
 * request_withdrawal accounts, then the target vault and the user's position there, which must
 * already exist.
 */
export const requestBundleSwitchIx = (
  input: BundleTarget & { readonly user: Address; readonly targetBundle: Address; readonly sharesAmount: bigint }
): BuiltInstruction =>
  instruction(
    input.program,
    [
      writableSigner(input.user),
      writable(findUserBundlePda(input.program, input.user, input.bundle)[0]),
      writable(input.bundle),
      writable(findOraclePda(input.program, input.bundle)[0]),
      writable(findBundleTempDataPda(input.program, input.bundle)[0]),
      readonly(TOKEN_PROGRAM_ID),
      readonly(SYSTEM_PROGRAM_ID),
      readonly(RENT_SYSVAR_ID),
      readonly(input.targetBundle),
      readonly(findUserBundlePda(input.program, input.user, input.targetBundle)[0])
    ],
    u128ArgData("request_bundle_switch", input.sharesAmount)
  )
