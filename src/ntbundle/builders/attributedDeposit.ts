import type { Address } from "@solana/kit"
import { Either } from "effect"
import type { BundleTempData, ReferrerAccount } from "../accounts.ts"
import { attributionMemoText, memoIx } from "../ix/memo.ts"
import type { BuiltInstruction } from "../ix/meta.ts"
import { initializeBundleDepositorIx, requestDepositIx, setUserReferrerIx } from "../ix/user.ts"
import { depositFee, resolveEffectiveFees } from "../math.ts"
import type { PositionFields } from "../positionFields.ts"
import {
  checkCanOpenPosition,
  checkNotPaused,
  isDefaultAddress,
  requireBundle,
  validateAmountRaw,
  type VaultRef
} from "./common.ts"
import { BuildRejection, reject } from "./rejection.ts"

export interface AttributedDepositInput {
  readonly vault: VaultRef
  readonly user: Address
  readonly userBundleAccount: PositionFields | null
  /** Gross amount in raw asset units. */
  readonly amount: bigint
  /** The builder's wallet. */
  readonly referrer: Address
  /** ReferrerAccount PDA(bundle, referrer); null when not registered. */
  readonly referrerAccount: ReferrerAccount | null
  /** The builder's own position, UserBundleAccount PDA(referrer, bundle); null when missing. */
  readonly referrerUserBundleAccount: PositionFields | null
  readonly userTokenAccount?: Address
  readonly bundleTempData?: BundleTempData | null
}

export interface AttributedDepositPlan {
  /** [initialize_bundle_depositor], set_user_referrer, request_deposit, memo. */
  readonly instructions: ReadonlyArray<BuiltInstruction>
  readonly initializesUserAccount: boolean
  readonly referrer: Address
  readonly memoText: string
  readonly grossAmount: bigint
  readonly feeAmount: bigint
  readonly netAmount: bigint
}

/** A position can take a referrer only while it has never held or moved funds. */
const hasActivity = (position: PositionFields): boolean =>
  position.shares !== 0n ||
  position.pendingDeposit !== 0n ||
  position.pendingShares !== 0n ||
  position.estimatedPendingWithdrawalValue !== 0n ||
  position.netDeposits !== 0n ||
  position.totalFeeCharged !== 0n ||
  position.lastDepositTimestamp !== 0n

/**
 * An attributed first deposit, with the official SDK's pre-flight checks in its order (so the first
 * failing rule names the rejection).
 */
export const buildAttributedDeposit = (
  input: AttributedDepositInput
): Either.Either<AttributedDepositPlan, BuildRejection> =>
  Either.gen(function* () {
    const amount = yield* validateAmountRaw(input.amount)
    const bundle = yield* requireBundle(input.vault)
    yield* checkNotPaused(input.vault, input.bundleTempData)
    yield* checkCanOpenPosition(input.vault, bundle, input.userBundleAccount)

    if (amount < bundle.minDepositAmount) {
      return yield* Either.left(
        new BuildRejection({
          code: "BUILDER_DEPOSIT_AMOUNT_TOO_LOW",
          message: `an attributed deposit needs at least ${bundle.minDepositAmount}, got ${amount}`,
          requiredGrossDepositAmount: bundle.minDepositAmount
        })
      )
    }
    if (!bundle.referrerEnabled) {
      return yield* Either.left(reject("REFERRALS_DISABLED", `referrals are disabled on ${input.vault.bundleAddress}`))
    }
    if (isDefaultAddress(input.referrer) || input.referrer === bundle.manager || input.referrer === input.user) {
      return yield* Either.left(
        reject("INVALID_REFERRER", "the referrer must not be the default key, the vault manager or the depositor")
      )
    }
    const position = input.userBundleAccount
    if (position !== null && !isDefaultAddress(position.referrer)) {
      return yield* Either.left(
        new BuildRejection({
          code: "REFERRAL_ALREADY_SET",
          message: `the position is already attributed to ${position.referrer}`,
          existingReferrer: position.referrer
        })
      )
    }
    if (position !== null && hasActivity(position)) {
      return yield* Either.left(
        reject("USER_BUNDLE_ACCOUNT_HAS_ACTIVITY", "only a position without any past activity can be attributed")
      )
    }
    if (input.referrerAccount === null) {
      return yield* Either.left(reject("REFERRER_NOT_REGISTERED", `${input.referrer} is not registered on this vault`))
    }
    if (!input.referrerAccount.active) {
      return yield* Either.left(reject("REFERRER_DEACTIVATED", `${input.referrer} is deactivated on this vault`))
    }
    const referrerNetDeposits = input.referrerUserBundleAccount?.netDeposits
    if (referrerNetDeposits === undefined || referrerNetDeposits < bundle.referrerMinDepositAmount) {
      return yield* Either.left(
        reject(
          "REFERRER_DEPOSIT_TOO_LOW",
          `the referrer's own deposit must be at least ${bundle.referrerMinDepositAmount}` +
            (referrerNetDeposits === undefined ? " (it has no position)" : `, is ${referrerNetDeposits}`)
        )
      )
    }

    const target = { program: input.vault.program, bundle: input.vault.bundleAddress }
    const memoText = attributionMemoText(input.referrer)
    const split = depositFee(amount, resolveEffectiveFees(bundle, position).depositFeeBps)
    const instructions: ReadonlyArray<BuiltInstruction> = [
      ...(position === null ? [initializeBundleDepositorIx({ ...target, payer: input.user, authority: input.user })] : []),
      setUserReferrerIx({ ...target, user: input.user, referrer: input.referrer }),
      requestDepositIx({
        ...target,
        user: input.user,
        assetMint: bundle.assetAddress,
        treasury: bundle.treasuryAccount,
        amount,
        ...(input.userTokenAccount === undefined ? {} : { userTokenAccount: input.userTokenAccount })
      }),
      memoIx(memoText)
    ]
    return {
      instructions,
      initializesUserAccount: position === null,
      referrer: input.referrer,
      memoText,
      grossAmount: amount,
      feeAmount: split.feeAmount,
      netAmount: split.netAmount
    }
  })
