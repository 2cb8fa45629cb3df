import type { Address } from "@solana/kit"
import { Either } from "effect"
import type { BundleTempData, OracleData } from "../accounts.ts"
import { createAssociatedTokenAccountIdempotentIx } from "../ix/associatedToken.ts"
import type { BuiltInstruction } from "../ix/meta.ts"
import { requestWithdrawalIx } from "../ix/user.ts"
import { assetsFromShares, computeWithdrawalShares, vaultValuation } from "../math.ts"
import { findAssociatedTokenAddress } from "../pdas.ts"
import type { PositionFields } from "../positionFields.ts"
import { checkNotPaused, requireBundle, validateAmountRaw, type VaultRef } from "./common.ts"
import { reject, type BuildRejection } from "./rejection.ts"

/** Either a raw asset amount (converted to shares at the current price) or the whole position. */
export type WithdrawSize = { readonly amount: bigint } | { readonly withdrawAll: true }

export type WithdrawInput = {
  readonly vault: VaultRef
  readonly oracle: OracleData | null
  readonly user: Address
  readonly userBundleAccount: PositionFields | null
  readonly bundleTempData?: BundleTempData | null
} & WithdrawSize

export interface WithdrawPlan {
  /** ATA CreateIdempotent for the payout account, request_withdrawal. */
  readonly instructions: ReadonlyArray<BuiltInstruction>
  /** The shares request_withdrawal encodes. */
  readonly sharesAmount: bigint
  /** Their value at the current price, before the withdrawal fee. */
  readonly estimatedValueRaw: bigint
  /** Where the keeper pays out: the user's ATA for the vault's asset. */
  readonly userTokenAccount: Address
}

/**
 * A withdrawal request. The payout later goes to the user's asset ATA, so it is created
 * (idempotently) first.
 */
export const buildWithdraw = (input: WithdrawInput): Either.Either<WithdrawPlan, BuildRejection> => {
  // plain early returns rather than Either.gen: this runs on every withdrawal build
  let amount: bigint | null = null
  if ("amount" in input) {
    const valid = validateAmountRaw(input.amount)
    if (Either.isLeft(valid)) return Either.left(valid.left)
    amount = valid.right
  }
  const found = requireBundle(input.vault)
  if (Either.isLeft(found)) return Either.left(found.left)
  const bundle = found.right
  const oracle = input.oracle
  if (oracle === null) {
    return Either.left(reject("ORACLE_DATA_NOT_FOUND", `no oracle account for ${input.vault.bundleAddress}`))
  }
  const notPaused = checkNotPaused(input.vault, input.bundleTempData)
  if (Either.isLeft(notPaused)) return Either.left(notPaused.left)
  const position = input.userBundleAccount
  if (position === null) {
    return Either.left(reject("USER_BUNDLE_ACCOUNT_NOT_FOUND", `${input.user} has no position in ${input.vault.bundleAddress}`))
  }
  if (position.pendingDeposit !== 0n) {
    return Either.left(reject("PENDING_DEPOSIT_EXISTS", "a deposit is still pending; withdraw after it has been processed"))
  }
  if (position.estimatedPendingWithdrawalValue !== 0n) {
    return Either.left(reject("WITHDRAWAL_ALREADY_PENDING", "a withdrawal is already pending"))
  }

  const valuation = vaultValuation({ bundle, oracle })
  const sharesAmount = amount === null ? position.shares : computeWithdrawalShares(valuation, position.shares, amount)
  if (sharesAmount === 0n) {
    return Either.left(reject("WITHDRAWAL_SHARES_ZERO", "the requested amount corresponds to zero shares"))
  }

  const [userTokenAccount] = findAssociatedTokenAddress(input.user, bundle.assetAddress)
  return Either.right({
    instructions: [
      createAssociatedTokenAccountIdempotentIx({ payer: input.user, owner: input.user, mint: bundle.assetAddress }),
      requestWithdrawalIx({
        program: input.vault.program,
        bundle: input.vault.bundleAddress,
        user: input.user,
        sharesAmount
      })
    ],
    sharesAmount,
    estimatedValueRaw: assetsFromShares(valuation, sharesAmount),
    userTokenAccount
  })
}
