import type { Address } from "@solana/kit"
import { Either } from "effect"
import type { BundleTempData, ReferrerAccount, UserBundleAccount } from "../accounts.ts"
import type { BuiltInstruction } from "../ix/meta.ts"
import { initializeBundleDepositorIx, registerReferrerIx } from "../ix/user.ts"
import { grossForNet, resolveEffectiveFees } from "../math.ts"
import {
  checkCanOpenPosition,
  checkNotPaused,
  depositInstructions,
  isDefaultAddress,
  requireBundle,
  validateAmountRaw,
  type VaultRef
} from "./common.ts"
import { reject, type BuildRejection } from "./rejection.ts"

export interface BuilderRegistrationInput {
  readonly vault: VaultRef
  /** The builder's wallet. */
  readonly referrer: Address
  /** Existing ReferrerAccount PDA(bundle, referrer), if any. */
  readonly referrerAccount: ReferrerAccount | null
  /** The builder's own position; null when missing. */
  readonly referrerUserBundleAccount: UserBundleAccount | null
  /** Optional deposit to make alongside (gross raw units, at least the vault minimum). */
  readonly depositAmount?: bigint
  readonly referrerTokenAccount?: Address
  readonly bundleTempData?: BundleTempData | null
}

export type BuilderRegistrationPlan =
  | {
      /** The builder's net deposits already meet the vault's builder minimum: one transaction. */
      readonly kind: "single-transaction"
      /** [initialize_bundle_depositor | deposit], register_referrer. */
      readonly instructions: ReadonlyArray<BuiltInstruction>
      readonly depositAmount: bigint | null
    }
  | {
      /**
       * The minimum is not met yet. register_referrer checks settled net deposits, so the deposit
       * must be netted by the keeper before registering: two transactions.
       */
      readonly kind: "netting-required"
      /** Null when pending deposits already cover the shortfall once netted. */
      readonly depositStep: {
        readonly instructions: ReadonlyArray<BuiltInstruction>
        readonly depositAmount: bigint
      } | null
      /** register_referrer, to send after netting. */
      readonly registerInstructions: ReadonlyArray<BuiltInstruction>
      /** Net deposits still missing, before counting pending deposits. */
      readonly netDepositShortfall: bigint
    }

const bigintMax = (...values: ReadonlyArray<bigint>): bigint => values.reduce((a, b) => (a > b ? a : b))

/** Registration as a builder on a vault (the official SDK's registration plan). */
export const buildBuilderRegistration = (
  input: BuilderRegistrationInput
): Either.Either<BuilderRegistrationPlan, BuildRejection> =>
  Either.gen(function* () {
    const bundle = yield* requireBundle(input.vault)
    if (!bundle.referrerEnabled) {
      return yield* Either.left(reject("REFERRALS_DISABLED", `referrals are disabled on ${input.vault.bundleAddress}`))
    }
    if (isDefaultAddress(input.referrer) || input.referrer === bundle.manager) {
      return yield* Either.left(reject("INVALID_REFERRER", "the builder must not be the default key or the vault manager"))
    }
    if (input.referrerAccount !== null) {
      return yield* Either.left(
        input.referrerAccount.active
          ? reject("REFERRER_ALREADY_REGISTERED", `${input.referrer} is already registered on this vault`)
          : reject("REFERRER_DEACTIVATED", `${input.referrer} is registered but deactivated; only the manager can reactivate it`)
      )
    }
    const requested = input.depositAmount === undefined ? null : yield* validateAmountRaw(input.depositAmount)
    if (requested !== null && requested < bundle.minDepositAmount) {
      return yield* Either.left(
        reject("MIN_DEPOSIT_AMOUNT_NOT_MET", `deposit ${requested} is below the vault minimum ${bundle.minDepositAmount}`)
      )
    }
    const position = input.referrerUserBundleAccount
    yield* checkCanOpenPosition(input.vault, bundle, position)

    const target = { program: input.vault.program, bundle: input.vault.bundleAddress }
    const register = registerReferrerIx({ ...target, referrer: input.referrer })
    const depositOf = (amount: bigint): ReadonlyArray<BuiltInstruction> =>
      depositInstructions({
        vault: input.vault,
        bundle,
        user: input.referrer,
        userBundleAccount: position,
        amount,
        userTokenAccount: input.referrerTokenAccount
      })

    const netDeposits = position?.netDeposits ?? 0n
    const shortfall = bundle.referrerMinDepositAmount - netDeposits
    if (shortfall <= 0n) {
      if (requested !== null) yield* checkNotPaused(input.vault, input.bundleTempData)
      const opening =
        requested !== null
          ? depositOf(requested)
          : position === null
            ? [initializeBundleDepositorIx({ ...target, payer: input.referrer, authority: input.referrer })]
            : []
      return { kind: "single-transaction", instructions: [...opening, register], depositAmount: requested } as const
    }

    const stillNeeded = shortfall - (position?.pendingDeposit ?? 0n)
    if (stillNeeded <= 0n && requested === null) {
      return {
        kind: "netting-required",
        depositStep: null,
        registerInstructions: [register],
        netDepositShortfall: shortfall
      } as const
    }
    const depositFeeBps = resolveEffectiveFees(bundle, position).depositFeeBps
    const grossNeeded = stillNeeded > 0n ? grossForNet(stillNeeded, depositFeeBps) : 0n
    if (grossNeeded === null) {
      return yield* Either.left(reject("INVALID_FEE_CONFIG", `deposit fee ${depositFeeBps} bps leaves nothing to deposit`))
    }
    yield* checkNotPaused(input.vault, input.bundleTempData)
    const depositAmount = bigintMax(bundle.minDepositAmount, grossNeeded, requested ?? 0n)
    return {
      kind: "netting-required",
      depositStep: { instructions: depositOf(depositAmount), depositAmount },
      registerInstructions: [register],
      netDepositShortfall: shortfall
    } as const
  })
