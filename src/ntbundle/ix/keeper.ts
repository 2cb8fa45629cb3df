// Keeper-signed ntbundle instructions, for the sandbox chain and tooling (the public API never
// builds these). Account order and flags follow the IDL.
import type { AccountMeta, Address } from "@solana/kit"
import { encodeInstructionData, type InstructionName } from "../instructions.ts"
import { noArgsData } from "./argsData.ts"
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

interface PositionPayout extends KeeperTarget, WithAssetMint {
  readonly owner: Address
  /** Destination of the tokens; defaults to the owner's ATA for the asset mint. */
  readonly userTokenAccount?: Address
}

/**
 * A keeper instruction: the keeper first (writable signer in every one of them), then the rest of
 * the IDL list, then the remaining accounts.
 */
const keeperIx = (
  input: KeeperTarget,
  name: InstructionName,
  accounts: ReadonlyArray<AccountMeta>,
  data: Uint8Array = noArgsData(name)
): BuiltInstruction =>
  instruction(input.program, [writableSigner(input.keeper), ...accounts, ...(input.remainingAccounts ?? [])], data)

const positionOf = (input: KeeperTarget & { readonly owner: Address }): Address => findUserBundlePda(input.program, input.owner, input.bundle)[0]

const ownerTokenAccount = (owner: Address, input: WithAssetMint, passed: Address | undefined): Address =>
  passed ?? findAssociatedTokenAddress(owner, input.assetMint)[0]

/** Moves the cycle's pending deposits to the vault account and settles netting. */
export const netPendingTransactionsIx = (input: KeeperTarget & WithAssetMint): BuiltInstruction => {
  const vault = deriveBundleAccounts(input.program, input.bundle, input.assetMint)
  return keeperIx(input, "net_pending_transactions", [
    writable(input.bundle), writable(vault.pendingDepositTokenAccount), writable(vault.bundleAssetTokenAccount), writable(input.assetMint),
    writable(vault.pendingBundleAssetAuthority), writable(vault.oracleData), writable(vault.bundleTempData), writable(vault.bundleAssetAuthority),
    readonly(TOKEN_PROGRAM_ID)
  ])
}

/** Mints shares for `owner`'s netted deposit. */
export const processDepositIx = (input: KeeperTarget & WithAssetMint & { readonly owner: Address }): BuiltInstruction => {
  const vault = deriveBundleAccounts(input.program, input.bundle, input.assetMint)
  return keeperIx(input, "process_deposit", [
    writable(positionOf(input)), writable(vault.pendingDepositTokenAccount), readonly(input.owner), writable(input.assetMint),
    writable(vault.bundleAssetTokenAccount), writable(input.bundle), writable(vault.bundleTempData), writable(vault.oracleData),
    writable(vault.pendingBundleAssetAuthority), writable(vault.bundleAssetAuthority), readonly(TOKEN_PROGRAM_ID), readonly(SYSTEM_PROGRAM_ID)
  ])
}

/** Pays out `owner`'s matured withdrawal (withdrawal fee to the treasury). */
export const processWithdrawalIx = (input: PositionPayout & { /** `bundle.treasuryAccount`. */ readonly treasury: Address }): BuiltInstruction => {
  const vault = deriveBundleAccounts(input.program, input.bundle, input.assetMint)
  return keeperIx(input, "process_withdrawal", [
    readonly(input.owner), writable(ownerTokenAccount(input.owner, input, input.userTokenAccount)), writable(input.assetMint),
    writable(vault.bundleAssetTokenAccount), writable(vault.pendingBundleAssetAuthority), writable(positionOf(input)), writable(input.treasury),
    writable(vault.bundleAssetAuthority), writable(input.bundle), writable(vault.bundleTempData), writable(vault.oracleData),
    readonly(TOKEN_PROGRAM_ID), readonly(SYSTEM_PROGRAM_ID)
  ])
}

/**
 * Completes `owner`'s matured switch out of `bundle` (the source) into `targetBundle`: source
 * accounts, then the target's, in the IDL's order. `treasury`/`targetTreasury` are the two
 * vaults' `treasury_account`s.
 */
export const processSwitchIx = (
  input: PositionPayout & { readonly treasury: Address; readonly targetBundle: Address; readonly targetTreasury: Address }
): BuiltInstruction => {
  const source = deriveBundleAccounts(input.program, input.bundle, input.assetMint)
  const target = deriveBundleAccounts(input.program, input.targetBundle, input.assetMint)
  return keeperIx(input, "process_switch", [
    readonly(input.owner), writable(ownerTokenAccount(input.owner, input, input.userTokenAccount)), writable(input.assetMint),
    writable(source.bundleAssetTokenAccount), writable(positionOf(input)), writable(input.treasury), writable(source.bundleAssetAuthority),
    writable(input.bundle), writable(source.bundleTempData), writable(source.oracleData),
    readonly(input.targetBundle), writable(findUserBundlePda(input.program, input.owner, input.targetBundle)[0]), writable(target.bundleTempData),
    writable(target.pendingDepositTokenAccount), readonly(target.pendingBundleAssetAuthority), readonly(target.oracleData), writable(input.targetTreasury),
    readonly(TOKEN_PROGRAM_ID), readonly(SYSTEM_PROGRAM_ID)
  ])
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
  const vault = deriveBundleAccounts(input.program, input.bundle, input.assetMint)
  return keeperIx(input, "process_referrer_withdrawal", [
    readonly(input.referrer), writable(ownerTokenAccount(input.referrer, input, input.referrerTokenAccount)), writable(input.assetMint),
    writable(vault.bundleAssetTokenAccount), writable(input.bundle), writable(vault.oracleData), writable(vault.bundleTempData),
    writable(vault.bundleAssetAuthority), writable(findReferrerPda(input.program, input.bundle, input.referrer)[0]), readonly(TOKEN_PROGRAM_ID)
  ])
}

/** Charges management and performance fees to `owner`'s position. */
export const applyFeesToUserIx = (input: KeeperTarget & { readonly owner: Address }): BuiltInstruction =>
  keeperIx(input, "apply_fees_to_user", [
    writable(input.owner), writable(positionOf(input)), writable(input.bundle),
    writable(findOraclePda(input.program, input.bundle)[0]), writable(findBundleAssetAuthorityPda(input.program, input.bundle)[0])
  ])

/** Reports the equity deployed outside the vault account. */
export const updateOracleIx = (input: KeeperTarget & { readonly newEquity: bigint }): BuiltInstruction =>
  keeperIx(
    input,
    "update_oracle",
    [writable(input.bundle), writable(findBundleTempDataPda(input.program, input.bundle)[0]), writable(findOraclePda(input.program, input.bundle)[0])],
    encodeInstructionData({ name: "update_oracle", args: { newEquity: input.newEquity } })
  )

/** Returns `owner`'s pending deposit. */
export const refundDepositIx = (input: PositionPayout): BuiltInstruction => {
  const vault = deriveBundleAccounts(input.program, input.bundle, input.assetMint)
  return keeperIx(input, "refund_deposit", [
    writable(positionOf(input)), readonly(input.owner), writable(ownerTokenAccount(input.owner, input, input.userTokenAccount)), writable(input.assetMint),
    writable(vault.bundleAssetTokenAccount), writable(vault.bundleAssetAuthority), writable(input.bundle), writable(vault.bundleTempData),
    readonly(TOKEN_PROGRAM_ID), readonly(SYSTEM_PROGRAM_ID)
  ])
}
