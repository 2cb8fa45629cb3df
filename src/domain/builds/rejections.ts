import type { BuildRejection, BuildRejectionCode } from "../../ntbundle/builders/rejection.ts"

/**
 * Policy refusal codes of the gateway's builds and previews, beyond those of the ntbundle
 * builders (`BuildRejectionCode`). Both lists are append-only: clients match on them.
 */
export const GATEWAY_REJECTION_CODES = [
  /** A strict (`requireAttribution`) deposit whose attribution failed; `attribution.reason` says why. */
  "ATTRIBUTION_REQUIRED",
  "MAX_DEPOSIT_AMOUNT_EXCEEDED",
  "INSUFFICIENT_TOKEN_BALANCE",
  "WITHDRAWAL_DELAY_NOT_MET",
  /** The keeper has netted this cycle's deposits; new requests wait for the cycle to close. */
  "NETTING_IN_PROGRESS",
  "BUNDLE_TEMP_DATA_NOT_FOUND",
  /** A preview asks for more shares than exist, or more value than the vault holds. */
  "WITHDRAWAL_EXCEEDS_VAULT"
] as const

export type GatewayRejectionCode = (typeof GATEWAY_REJECTION_CODES)[number]
export type RejectionCode = BuildRejectionCode | GatewayRejectionCode

export interface RejectionReason {
  readonly code: RejectionCode
  readonly message: string
}

/**
 * Why an attribution did not apply (`attribution.reason`): the builders' attribution codes plus
 * the two that only a code lookup can produce (facts §7).
 */
export type AttributionFailureReason = BuildRejectionCode | "UNKNOWN_CODE" | "INVALID_REFERRER_CODE"

export const reason = (code: RejectionCode, message: string): RejectionReason => ({ code, message })

export const reasonOf = (rejection: BuildRejection): RejectionReason => ({ code: rejection.code, message: rejection.message })
