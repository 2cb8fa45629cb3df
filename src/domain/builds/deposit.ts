import type { Address } from "@solana/kit"
import { Either } from "effect"
import { buildDeposit, type AttributedDepositPlan, type DepositPlan } from "../../ntbundle/builders/index.ts"
import { depositFee, resolveEffectiveFees } from "../../ntbundle/math.ts"
import type { PositionFields } from "../../ntbundle/positionFields.ts"
import type { VaultView } from "../projection/state.ts"
import { acceptedHead, assembleForRequest, buildInVault, rejectedBuild, type Fields } from "./transactionBuild.ts"
import { resolveAttribution } from "./attribution.ts"
import type { BuildContext } from "./context.ts"
import { vaultDepositRejection } from "./depositPolicy.ts"
import type { UnknownVault } from "./errors.ts"
import { vaultRef } from "./projectedAccounts.ts"
import { reason, reasonOf, type RejectionReason } from "./rejections.ts"
import type { DepositRequest } from "./requests.ts"
import type { AcceptedDeposit, Attribution, BuiltTransaction, DepositBuildResponse } from "./responses.ts"

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

type Plan = DepositPlan | AttributedDepositPlan

/**
 * An unsigned deposit transaction, or the policy reasons why not (both are answers). Instruction
 * order: compute budget, [initialize_bundle_depositor], [set_user_referrer], request_deposit, [memo].
 * Pure: reads the projection, the cached blockhash and the inputs only.
 */
export const buildDepositTransaction = (input: DepositBuildInput): Either.Either<DepositBuildResponse, UnknownVault> =>
  buildInVault(input, depositAnswer)

const depositAnswer = (input: DepositBuildInput, view: VaultView, position: PositionFields | null): DepositBuildResponse => {
  const { request, program } = input
  const user = request.userAddress
  const refuse = (reasons: ReadonlyArray<RejectionReason>, attribution?: Attribution): DepositBuildResponse =>
    attribution === undefined ? rejectedBuild(input, reasons) : { ...rejectedBuild(input, reasons), attribution }

  const { netAmount } = depositFee(request.amount, resolveEffectiveFees(view.bundle, position).depositFeeBps)
  const vaultRejection = vaultDepositRejection(view, request.amount, netAmount)
  if (vaultRejection !== null) return refuse([vaultRejection])
  if (input.userTokenBalance !== null && input.userTokenBalance < request.amount) {
    return refuse([
      reason("INSUFFICIENT_TOKEN_BALANCE", `the source token account holds ${input.userTokenBalance}, less than the deposit ${request.amount}`)
    ])
  }

  const plain = buildDeposit({
    vault: vaultRef(program, view),
    user,
    userBundleAccount: position,
    amount: request.amount,
    bundleTempData: view.temp
  })
  if (Either.isLeft(plain)) return refuse([reasonOf(plain.left)])

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
        return refuse([outcome.reason])
      case "attributed":
        plan = outcome.plan
        attribution = outcome.attribution
        break
      case "not-applied":
        attribution = outcome.attribution
        if (request.requireAttribution && outcome.attribution.existingReferrerMatchesRequest !== true) {
          return refuse(
            [reason("ATTRIBUTION_REQUIRED", `the deposit cannot be attributed (${outcome.attribution.reason}) and attribution is required`)],
            outcome.attribution
          )
        }
    }
  }

  const transaction = assembleForRequest(input, request, plan.instructions)
  return new AcceptedDepositBuild(input.vaultAddress, user, transaction, request.amount, plan, attribution)
}

interface AcceptedDepositBuild extends Fields<AcceptedDeposit> {}

class AcceptedDepositBuild {
  constructor(vaultAddress: string, userAddress: string, transaction: BuiltTransaction, amount: bigint, plan: Plan, attribution: Attribution | undefined) {
    acceptedHead(this, vaultAddress, userAddress, transaction)
    // only when the request asked for attribution, between the transaction and the amounts
    if (attribution !== undefined) this.attribution = attribution
    this.amountRaw = amount.toString()
    this.feeAmountRaw = plan.feeAmount.toString()
    this.netAmountRaw = plan.netAmount.toString()
    this.initializesUserAccount = plan.initializesUserAccount
  }
}
