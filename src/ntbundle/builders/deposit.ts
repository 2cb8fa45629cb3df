import type { Address } from "@solana/kit"
import { Either } from "effect"
import type { BundleTempData } from "../accounts.ts"
import type { BuiltInstruction } from "../ix/meta.ts"
import { depositFee, resolveEffectiveFees } from "../math.ts"
import type { PositionFields } from "../positionFields.ts"
import {
  checkCanOpenPosition,
  checkNotPaused,
  depositInstructions,
  requireBundle,
  validateAmountRaw,
  type VaultRef
} from "./common.ts"
import { reject, type BuildRejection } from "./rejection.ts"

export interface DepositInput {
  readonly vault: VaultRef
  readonly user: Address
  /** The user's position in the vault; null when it does not exist yet. */
  readonly userBundleAccount: PositionFields | null
  /** Gross amount in raw asset units. */
  readonly amount: bigint
  /** Source of funds; defaults to the user's ATA for the vault's asset. */
  readonly userTokenAccount?: Address
  /** When known, a paused vault is rejected up front. */
  readonly bundleTempData?: BundleTempData | null
}

export interface DepositPlan {
  /** [initialize_bundle_depositor], request_deposit. */
  readonly instructions: ReadonlyArray<BuiltInstruction>
  readonly initializesUserAccount: boolean
  readonly grossAmount: bigint
  /** Deposit fee at the user's effective rate (rounded up) and what remains for shares. */
  readonly feeAmount: bigint
  readonly netAmount: bigint
}

/** An unattributed deposit. Checks: amount, vault exists, not paused, position can be opened, vault minimum. */
export const buildDeposit = (input: DepositInput): Either.Either<DepositPlan, BuildRejection> => {
  // plain early returns rather than Either.gen: this runs on every deposit build
  const valid = validateAmountRaw(input.amount)
  if (Either.isLeft(valid)) return Either.left(valid.left)
  const amount = valid.right
  const found = requireBundle(input.vault)
  if (Either.isLeft(found)) return Either.left(found.left)
  const bundle = found.right
  const notPaused = checkNotPaused(input.vault, input.bundleTempData)
  if (Either.isLeft(notPaused)) return Either.left(notPaused.left)
  const canOpen = checkCanOpenPosition(input.vault, bundle, input.userBundleAccount)
  if (Either.isLeft(canOpen)) return Either.left(canOpen.left)
  if (amount < bundle.minDepositAmount) {
    return Either.left(reject("MIN_DEPOSIT_AMOUNT_NOT_MET", `deposit ${amount} is below the vault minimum ${bundle.minDepositAmount}`))
  }
  const fees = resolveEffectiveFees(bundle, input.userBundleAccount)
  const split = depositFee(amount, fees.depositFeeBps)
  return Either.right({
    instructions: depositInstructions({
      vault: input.vault,
      bundle,
      user: input.user,
      userBundleAccount: input.userBundleAccount,
      amount,
      userTokenAccount: input.userTokenAccount
    }),
    initializesUserAccount: input.userBundleAccount === null,
    grossAmount: amount,
    feeAmount: split.feeAmount,
    netAmount: split.netAmount
  })
}
