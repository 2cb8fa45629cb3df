import type { AccountMeta, Address } from "@solana/kit"
import { AccountRole } from "@solana/kit"
import { Either } from "effect"
import { buildAttributedDeposit, buildDeposit } from "../../../src/ntbundle/builders/index.ts"
import {
  applyFeesToUserIx,
  netPendingTransactionsIx,
  processDepositIx,
  processReferrerWithdrawalIx,
  processWithdrawalIx,
  refundDepositIx,
  updateOracleIx
} from "../../../src/ntbundle/ix/keeper.ts"
import { initializeBundleDepositorIx, referrerRequestWithdrawIx, registerReferrerIx, requestWithdrawalIx } from "../../../src/ntbundle/ix/user.ts"
import { findReferrerPda } from "../../../src/ntbundle/pdas.ts"
import type { Keypair } from "../../../src/sandbox/crypto/keypair.ts"
import type { SendOutcome } from "../../../src/sandbox/runtime/processor.ts"
import { encodeInstructionData } from "../../../src/ntbundle/instructions.ts"
import { expectLanded, type Harness } from "./harness.ts"

/** The user and keeper steps of the program, as signed transactions through the harness. */
export const flows = (h: Harness) => {
  const vaultRef = () => ({ program: h.programId, bundleAddress: h.vault, bundle: h.bundle() })
  const keeperTarget = (remainingAccounts?: ReadonlyArray<AccountMeta>) => ({
    program: h.programId,
    bundle: h.vault,
    keeper: h.keeper.address as Address,
    assetMint: h.mint,
    ...(remainingAccounts === undefined ? {} : { remainingAccounts })
  })
  /** The referred user's ReferrerAccount, passed after the IDL accounts. */
  const referrerMeta = (owner: string): ReadonlyArray<AccountMeta> | undefined => {
    const referrer = h.user(owner)?.referrer
    if (referrer === undefined || referrer === "11111111111111111111111111111111") return undefined
    return [{ address: findReferrerPda(h.programId, h.vault, referrer)[0], role: AccountRole.WRITABLE }]
  }

  const api = {
    requestDeposit: (user: Keypair, amount: bigint): SendOutcome => {
      const plan = buildDeposit({ vault: vaultRef(), user: user.address as Address, userBundleAccount: h.user(user.address), amount })
      if (Either.isLeft(plan)) throw new Error(plan.left.message)
      return h.send(user, plan.right.instructions)
    },
    attributedDeposit: (user: Keypair, amount: bigint, referrer: string): SendOutcome => {
      const plan = buildAttributedDeposit({
        vault: vaultRef(),
        user: user.address as Address,
        userBundleAccount: h.user(user.address),
        amount,
        referrer: referrer as Address,
        referrerAccount: h.referrer(referrer),
        referrerUserBundleAccount: h.user(referrer)
      })
      if (Either.isLeft(plan)) throw new Error(plan.left.message)
      return h.send(user, plan.right.instructions)
    },
    initialize: (user: Keypair): SendOutcome =>
      h.send(user, [initializeBundleDepositorIx({ program: h.programId, bundle: h.vault, payer: user.address as Address, authority: user.address as Address })]),
    net: (): SendOutcome => h.send(h.keeper, [netPendingTransactionsIx(keeperTarget())]),
    processDeposit: (owner: string): SendOutcome => h.send(h.keeper, [processDepositIx({ ...keeperTarget(referrerMeta(owner)), owner: owner as Address })]),
    refund: (owner: string): SendOutcome => h.send(h.keeper, [refundDepositIx({ ...keeperTarget(referrerMeta(owner)), owner: owner as Address })]),
    /** Request, net and process: the user's deposit becomes shares. */
    deposit: (user: Keypair, amount: bigint): SendOutcome => {
      expectLanded(api.requestDeposit(user, amount))
      expectLanded(api.net())
      return expectLanded(api.processDeposit(user.address))
    },
    depositReferred: (user: Keypair, amount: bigint, referrer: string): SendOutcome => {
      expectLanded(api.attributedDeposit(user, amount, referrer))
      expectLanded(api.net())
      return expectLanded(api.processDeposit(user.address))
    },
    register: (builder: Keypair): SendOutcome => h.send(builder, [registerReferrerIx({ program: h.programId, bundle: h.vault, referrer: builder.address as Address })]),
    /** A builder with its own position, registered. */
    onboardBuilder: (builder: Keypair, amount: bigint): void => {
      api.deposit(builder, amount)
      expectLanded(api.register(builder))
    },
    requestWithdrawal: (user: Keypair, sharesAmount: bigint): SendOutcome =>
      h.send(user, [requestWithdrawalIx({ program: h.programId, bundle: h.vault, user: user.address as Address, sharesAmount })]),
    processWithdrawal: (owner: string): SendOutcome =>
      h.send(h.keeper, [processWithdrawalIx({ ...keeperTarget(referrerMeta(owner)), owner: owner as Address, treasury: h.bundle().treasuryAccount })]),
    applyFees: (owner: string, remaining = referrerMeta(owner)): SendOutcome =>
      h.send(h.keeper, [applyFeesToUserIx({ program: h.programId, bundle: h.vault, keeper: h.keeper.address as Address, owner: owner as Address, ...(remaining === undefined ? {} : { remainingAccounts: remaining }) })]),
    updateOracle: (newEquity: bigint): SendOutcome => h.send(h.keeper, [updateOracleIx({ program: h.programId, bundle: h.vault, keeper: h.keeper.address as Address, newEquity })]),
    claim: (builder: Keypair): SendOutcome => h.send(builder, [referrerRequestWithdrawIx({ program: h.programId, bundle: h.vault, referrer: builder.address as Address })]),
    settleClaim: (builder: string): SendOutcome => h.send(h.keeper, [processReferrerWithdrawalIx({ ...keeperTarget(), referrer: builder as Address })])
  }
  return api
}

/** Manager instructions (no builder in src/ntbundle/ix): manager (W S), bundle, [referrer account (W)]. */
export const managerIx = (
  h: Harness,
  name: "set_referrer_active" | "set_referrer_config" | "set_referral_tier_config" | "set_referrer_rate_override",
  args: object,
  referrer?: string
) => ({
  programId: h.programId as string,
  accounts: [
    { address: h.manager.address, isSigner: true, isWritable: true },
    { address: h.vault as string, isSigner: false, isWritable: referrer === undefined },
    ...(referrer === undefined ? [] : [{ address: findReferrerPda(h.programId, h.vault, referrer as Address)[0] as string, isSigner: false, isWritable: true }])
  ],
  data: encodeInstructionData({ name, args } as Parameters<typeof encodeInstructionData>[0])
})
