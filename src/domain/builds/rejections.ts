import type { RejectionCode as RegisteredRejectionCode } from "../../errors/codes.ts"
import type { BuildRejection, BuildRejectionCode } from "../../ntbundle/builders/rejection.ts"

/**
 * Policy refusal codes of the gateway's builds and previews, beyond those of the ntbundle
 * builders (`BuildRejectionCode`); each is declared, with its meaning, in the error-code registry.
 */
export const GATEWAY_REJECTION_CODES = [
  "ATTRIBUTION_REQUIRED",
  "MAX_DEPOSIT_AMOUNT_EXCEEDED",
  "INSUFFICIENT_TOKEN_BALANCE",
  "WITHDRAWAL_DELAY_NOT_MET",
  "NETTING_IN_PROGRESS",
  "BUNDLE_TEMP_DATA_NOT_FOUND",
  "WITHDRAWAL_EXCEEDS_VAULT"
] as const satisfies ReadonlyArray<RegisteredRejectionCode>

export type GatewayRejectionCode = (typeof GATEWAY_REJECTION_CODES)[number]
export type RejectionCode = BuildRejectionCode | GatewayRejectionCode

export interface RejectionReason {
  readonly code: RejectionCode
  readonly message: string
}

export const reason = (code: RejectionCode, message: string): RejectionReason => ({ code, message })

export const reasonOf = (rejection: BuildRejection): RejectionReason => ({ code: rejection.code, message: rejection.message })
