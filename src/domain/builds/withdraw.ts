import type { Address } from "@solana/kit"
import { Either } from "effect"
import { buildWithdraw, type WithdrawPlan } from "../../ntbundle/builders/index.ts"
import { acceptedHead, assembleForRequest, buildInVault, rejectedBuild, type Fields } from "./transactionBuild.ts"
import type { BuildContext } from "./context.ts"
import type { UnknownVault } from "./errors.ts"
import type { PositionFields } from "../../ntbundle/positionFields.ts"
import type { VaultView } from "../projection/state.ts"
import { vaultRef } from "./projectedAccounts.ts"
import { reason, reasonOf } from "./rejections.ts"
import type { WithdrawRequest } from "./requests.ts"
import type { AcceptedWithdrawal, BuiltTransaction, WithdrawBuildResponse } from "./responses.ts"
import { estimateWithdrawal, type WithdrawalEstimate } from "./withdrawalEstimates.ts"

export interface WithdrawBuildInput extends BuildContext {
  readonly vaultAddress: Address
  readonly request: WithdrawRequest
}

/**
 * An unsigned withdrawal request transaction, or the policy reasons why not. Instruction order:
 * compute budget, idempotent ATA create (the payout account), request_withdrawal. The ntbundle
 * builder decides the shares and most refusals; the program's delay and zero-value rules and the
 * temp account's presence are checked here on top.
 */
export const buildWithdrawTransaction = (input: WithdrawBuildInput): Either.Either<WithdrawBuildResponse, UnknownVault> =>
  buildInVault(input, withdrawalAnswer)

const withdrawalAnswer = (input: WithdrawBuildInput, view: VaultView, position: PositionFields | null): WithdrawBuildResponse => {
  const { request, program } = input
  const user = request.userAddress

  const planned = buildWithdraw({
    vault: vaultRef(program, view),
    oracle: view.oracle,
    user,
    userBundleAccount: position,
    bundleTempData: view.temp,
    ...request.size
  })
  if (Either.isLeft(planned)) return rejectedBuild(input, [reasonOf(planned.left)])
  const plan = planned.right
  if (view.temp === null) return rejectedBuild(input, [reason("BUNDLE_TEMP_DATA_NOT_FOUND", `no temp data account for ${view.address}`)])
  // the builder saw the position: it exists here
  const held = position!
  if (held.pendingShares !== 0n) {
    return rejectedBuild(input, [reason("WITHDRAWAL_ALREADY_PENDING", "a withdrawal is already pending")])
  }
  const { bundle } = view
  if (bundle.withdrawalDelay > 0n && input.now < held.lastDepositTimestamp + bundle.withdrawalDelay) {
    const allowedAt = held.lastDepositTimestamp + bundle.withdrawalDelay
    return rejectedBuild(input, [reason("WITHDRAWAL_DELAY_NOT_MET", `withdrawals open ${bundle.withdrawalDelay} s after the last deposit, at ${allowedAt}`)])
  }
  if (plan.estimatedValueRaw === 0n) {
    return rejectedBuild(input, [reason("WITHDRAWAL_VALUE_TOO_SMALL", "the shares to withdraw are currently worth nothing")])
  }

  const estimate = estimateWithdrawal(bundle, held, plan.sharesAmount, plan.estimatedValueRaw, input.now)
  const transaction = assembleForRequest(input, request, plan.instructions)
  return new AcceptedWithdrawalBuild(input.vaultAddress, user, transaction, plan, estimate)
}

interface AcceptedWithdrawalBuild extends Fields<AcceptedWithdrawal> {}

class AcceptedWithdrawalBuild {
  constructor(vaultAddress: string, userAddress: string, transaction: BuiltTransaction, plan: WithdrawPlan, estimate: WithdrawalEstimate) {
    acceptedHead(this, vaultAddress, userAddress, transaction)
    this.sharesAmount = plan.sharesAmount.toString()
    this.estimatedWithdrawalValueRaw = plan.estimatedValueRaw.toString()
    this.estimatedWithdrawalFeeRaw = estimate.feeAmount.toString()
    this.estimatedNetAmountRaw = estimate.netAmount.toString()
    this.cooldownSeconds = Number(estimate.cooldownSeconds)
    this.estimatedAvailableTimestamp = Number(estimate.availableAt)
    this.userTokenAccount = plan.userTokenAccount
  }
}
