import type { Address } from "@solana/kit"
import { Either } from "effect"
import { buildDeposit } from "../../ntbundle/builders/index.ts"
import type { BuiltInstruction } from "../../ntbundle/ix/meta.ts"
import { depositFee, resolveEffectiveFees } from "../../ntbundle/math.ts"
import { assembleTransaction } from "./assemble.ts"
import { resolveAttribution } from "./attribution.ts"
import type { BuildContext } from "./context.ts"
import { vaultDepositRejection } from "./depositPolicy.ts"
import { UnknownVault } from "./errors.ts"
import { readPosition, vaultRef } from "./projectedAccounts.ts"
import { reason, reasonOf, type RejectionReason } from "./rejections.ts"
import type { DepositRequest } from "./requests.ts"
import { accepted, rejectedBecause, type Attribution, type DepositBuildResponse } from "./responses.ts"

export interface DepositBuildInput extends BuildContext {
  readonly vaultAddress: Address
  readonly request: DepositRequest
  /** What the request's code resolved to: the builder wallet, or null when unknown or disabled. Ignored without a code. */
  readonly codeReferrer: Address | null
  /**
   * The user's balance in the deposit's source token account (their ATA for the vault asset), read
   * from chain by the caller; 0 when that account does not exist; null when unknown (not checked).
   */
  readonly userTokenBalance: bigint | null
}

interface Plan {
  readonly instructions: ReadonlyArray<BuiltInstruction>
  readonly initializesUserAccount: boolean
  readonly feeAmount: bigint
  readonly netAmount: bigint
}

/**
 * An unsigned deposit transaction, or the policy reasons why not (both are answers). Instruction
 * order: compute budget, [initialize_bundle_depositor], [set_user_referrer], request_deposit, [memo].
 * Pure: reads the projection, the cached blockhash and the inputs only.
 */
export const buildDepositTransaction = (input: DepositBuildInput): Either.Either<DepositBuildResponse, UnknownVault> => {
  const view = input.state.vaults.get(input.vaultAddress)
  if (view === undefined) return Either.left(UnknownVault.at(input.vaultAddress))
  const { request, program } = input
  const user = request.userAddress
  const target = { vaultAddress: input.vaultAddress, userAddress: user }
  const refuse = (reasons: ReadonlyArray<RejectionReason>, attribution?: Attribution): DepositBuildResponse => ({
    ...target,
    validation: rejectedBecause(reasons),
    ...(attribution === undefined ? {} : { attribution })
  })

  const position = readPosition(input.state, program, user, input.vaultAddress)
  const { netAmount } = depositFee(request.amount, resolveEffectiveFees(view.bundle, position).depositFeeBps)
  const vaultRejection = vaultDepositRejection(view, request.amount, netAmount)
  if (vaultRejection !== null) return Either.right(refuse([vaultRejection]))
  if (input.userTokenBalance !== null && input.userTokenBalance < request.amount) {
    return Either.right(
      refuse([
        reason(
          "INSUFFICIENT_TOKEN_BALANCE",
          `the source token account holds ${input.userTokenBalance}, less than the deposit ${request.amount}`
        )
      ])
    )
  }

  const plain = buildDeposit({
    vault: vaultRef(program, view),
    user,
    userBundleAccount: position,
    amount: request.amount,
    bundleTempData: view.temp
  })
  if (Either.isLeft(plain)) return Either.right(refuse([reasonOf(plain.left)]))

  let plan: Plan = plain.right
  let attribution: Attribution | undefined
  if (request.attribution !== null) {
    const outcome = resolveAttribution({
      state: input.state,
      program,
      view,
      user,
      position,
      amount: request.amount,
      target: request.attribution,
      codeReferrer: input.codeReferrer
    })
    switch (outcome.kind) {
      case "refused":
        return Either.right(refuse([outcome.reason]))
      case "attributed":
        plan = outcome.plan
        attribution = outcome.attribution
        break
      case "not-applied":
        attribution = outcome.attribution
        if (request.requireAttribution && outcome.attribution.existingReferrerMatchesRequest !== true) {
          return Either.right(
            refuse(
              [reason("ATTRIBUTION_REQUIRED", `the deposit cannot be attributed (${outcome.attribution.reason}) and attribution is required`)],
              outcome.attribution
            )
          )
        }
    }
  }

  const transaction = assembleTransaction({
    user,
    blockhash: input.blockhash,
    priorityFeeMicroLamports: request.priorityFeeMicroLamports ?? input.defaultPriorityFeeMicroLamports,
    instructions: plan.instructions
  })
  const amounts = {
    amountRaw: request.amount.toString(),
    feeAmountRaw: plan.feeAmount.toString(),
    netAmountRaw: plan.netAmount.toString(),
    initializesUserAccount: plan.initializesUserAccount
  }
  if (attribution !== undefined) {
    return Either.right({ ...target, validation: accepted, ...transaction, attribution, ...amounts })
  }
  // Written out field by field (same order as above): spreading into a literal is a slow path in V8.
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
    amountRaw: amounts.amountRaw,
    feeAmountRaw: amounts.feeAmountRaw,
    netAmountRaw: amounts.netAmountRaw,
    initializesUserAccount: amounts.initializesUserAccount
  })
}
