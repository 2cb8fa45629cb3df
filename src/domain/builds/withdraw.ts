import type { Address } from "@solana/kit"
import { Either } from "effect"
import { buildWithdraw } from "../../ntbundle/builders/index.ts"
import { assembleTransaction } from "./assemble.ts"
import type { BuildContext } from "./context.ts"
import { UnknownVault } from "./errors.ts"
import { readPosition, vaultRef } from "./projectedAccounts.ts"
import { reason, reasonOf, type RejectionReason } from "./rejections.ts"
import type { WithdrawRequest } from "./requests.ts"
import { accepted, rejectedBecause, type WithdrawBuildResponse } from "./responses.ts"
import { estimateWithdrawal } from "./withdrawalEstimates.ts"

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
export const buildWithdrawTransaction = (input: WithdrawBuildInput): Either.Either<WithdrawBuildResponse, UnknownVault> => {
  const view = input.state.vaults.get(input.vaultAddress)
  if (view === undefined) return Either.left(UnknownVault.at(input.vaultAddress))
  const { request, program } = input
  const user = request.userAddress
  const target = { vaultAddress: input.vaultAddress, userAddress: user }
  const refuse = (why: RejectionReason): WithdrawBuildResponse => ({ ...target, validation: rejectedBecause([why]) })

  const position = readPosition(input.state, program, user, input.vaultAddress)
  const planned = buildWithdraw({
    vault: vaultRef(program, view),
    oracle: view.oracle,
    user,
    userBundleAccount: position,
    bundleTempData: view.temp,
    ...request.size
  })
  if (Either.isLeft(planned)) return Either.right(refuse(reasonOf(planned.left)))
  const plan = planned.right
  if (view.temp === null) return Either.right(refuse(reason("BUNDLE_TEMP_DATA_NOT_FOUND", `no temp data account for ${view.address}`)))
  // the builder saw the position: it exists here
  const held = position!
  if (held.pendingShares !== 0n) {
    return Either.right(refuse(reason("WITHDRAWAL_ALREADY_PENDING", "a withdrawal is already pending")))
  }
  const { bundle } = view
  if (bundle.withdrawalDelay > 0n && input.now < held.lastDepositTimestamp + bundle.withdrawalDelay) {
    const allowedAt = held.lastDepositTimestamp + bundle.withdrawalDelay
    return Either.right(
      refuse(reason("WITHDRAWAL_DELAY_NOT_MET", `withdrawals open ${bundle.withdrawalDelay} s after the last deposit, at ${allowedAt}`))
    )
  }
  if (plan.estimatedValueRaw === 0n) {
    return Either.right(refuse(reason("WITHDRAWAL_VALUE_TOO_SMALL", "the shares to withdraw are currently worth nothing")))
  }

  const estimate = estimateWithdrawal(bundle, held, plan.sharesAmount, plan.estimatedValueRaw, input.now)
  const transaction = assembleTransaction({
    user,
    blockhash: input.blockhash,
    priorityFeeMicroLamports: request.priorityFeeMicroLamports ?? input.defaultPriorityFeeMicroLamports,
    instructions: plan.instructions
  })
  // Written out field by field: spreading into a literal is a slow path in V8.
  return Either.right({
    vaultAddress: input.vaultAddress,
    userAddress: user,
    validation: accepted,
    transactionBase64: transaction.transactionBase64,
    instructions: transaction.instructions,
    blockhash: transaction.blockhash,
    lastValidBlockHeight: transaction.lastValidBlockHeight,
    signers: transaction.signers,
    computeUnitLimit: transaction.computeUnitLimit,
    priorityFeeMicroLamports: transaction.priorityFeeMicroLamports,
    simulation: transaction.simulation,
    sharesAmount: plan.sharesAmount.toString(),
    estimatedWithdrawalValueRaw: plan.estimatedValueRaw.toString(),
    estimatedWithdrawalFeeRaw: estimate.feeAmount.toString(),
    estimatedNetAmountRaw: estimate.netAmount.toString(),
    cooldownSeconds: Number(estimate.cooldownSeconds),
    estimatedAvailableTimestamp: Number(estimate.availableAt),
    userTokenAccount: plan.userTokenAccount
  })
}
