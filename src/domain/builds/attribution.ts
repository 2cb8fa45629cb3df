import type { Address } from "@solana/kit"
import { Either } from "effect"
import { isAttributionReason } from "../../errors/codes.ts"
import { buildAttributedDeposit, isDefaultAddress, type AttributedDepositPlan } from "../../ntbundle/builders/index.ts"
import type { PositionFields } from "../../ntbundle/positionFields.ts"
import type { ProjectionState, VaultView } from "../projection/state.ts"
import { readPosition, readReferrerAccount, vaultRef } from "./projectedAccounts.ts"
import { reasonOf, type RejectionReason } from "./rejections.ts"
import type { AttributionTarget } from "./requests.ts"
import type { Attribution } from "./responses.ts"

export interface AttributionInput {
  readonly state: ProjectionState
  readonly program: Address
  readonly view: VaultView
  readonly user: Address
  readonly position: PositionFields | null
  readonly amount: bigint
  readonly target: AttributionTarget
  /** What a code resolved to; null for an unknown or disabled code. */
  readonly codeReferrer: Address | null
}

export type AttributionOutcome =
  | { readonly kind: "attributed"; readonly plan: AttributedDepositPlan; readonly attribution: Attribution }
  /** Build the plain deposit; `attribution` says why it is not attributed. */
  | { readonly kind: "not-applied"; readonly attribution: Attribution & { readonly applied: false } }
  /** The deposit itself is refused (not only its attribution). */
  | { readonly kind: "refused"; readonly reason: RejectionReason }

const notApplied = (attribution: Attribution & { readonly applied: false }): AttributionOutcome => ({
  kind: "not-applied",
  attribution
})

/**
 * Tries to attribute a first deposit to the requested builder, with the official SDK's checks
 * (facts §7) run by the ntbundle attributed-deposit builder against projected state.
 *
 * A position already bound to the requested builder is not a failure of intent: the deposit
 * counts for that builder anyway. It is reported as not applied (the binding exists already, no
 * set_user_referrer is sent) with `existingReferrerMatchesRequest: true`, and a strict build goes
 * ahead with the plain deposit.
 */
export const resolveAttribution = (input: AttributionInput): AttributionOutcome => {
  const { target } = input
  const code = target.kind === "code" ? { code: target.code } : {}
  let referrer: Address
  if (target.kind === "referrer") {
    referrer = target.referrer
  } else if (target.code === "") {
    return notApplied({ applied: false, reason: "INVALID_REFERRER_CODE" })
  } else if (input.codeReferrer === null) {
    return notApplied({ applied: false, reason: "UNKNOWN_CODE" })
  } else {
    referrer = input.codeReferrer
  }

  const existing = input.position?.referrer
  if (existing !== undefined && !isDefaultAddress(existing) && existing === referrer) {
    return notApplied({
      applied: false,
      reason: "REFERRAL_ALREADY_SET",
      existingReferrer: existing,
      existingReferrerMatchesRequest: true
    })
  }

  const vault = input.view.address as Address
  const attempt = buildAttributedDeposit({
    vault: vaultRef(input.program, input.view),
    user: input.user,
    userBundleAccount: input.position,
    amount: input.amount,
    referrer,
    referrerAccount: readReferrerAccount(input.state, input.program, vault, referrer),
    referrerUserBundleAccount: readPosition(input.state, input.program, referrer, vault),
    bundleTempData: input.view.temp
  })
  if (Either.isRight(attempt)) {
    return { kind: "attributed", plan: attempt.right, attribution: { applied: true, referrer, ...code } }
  }
  const rejection = attempt.left
  // codes that concern only the attribution: the deposit may go ahead without it
  if (!isAttributionReason(rejection.code)) return { kind: "refused", reason: reasonOf(rejection) }
  return notApplied({
    applied: false,
    reason: rejection.code,
    ...(rejection.existingReferrer === undefined
      ? {}
      : { existingReferrer: rejection.existingReferrer, existingReferrerMatchesRequest: false }),
    ...(rejection.requiredGrossDepositAmount === undefined
      ? {}
      : { requiredGrossDepositAmount: rejection.requiredGrossDepositAmount.toString() })
  })
}
