import type { Address } from "@solana/kit"
import { Data } from "effect"
import type { AttributionReason, RejectionCode } from "../../errors/codes.ts"

/**
 * Why a builder refused to produce instructions: the REST layer returns them as
 * `rejectionReasons[].code` / `attribution.reason`, so each is declared in the error-code registry
 * (src/errors/codes.ts, as `attribution` reasons those that concern only the attribution). Names
 * follow the official SDK and API where those have one.
 */
export const BUILD_REJECTION_CODES = [
  "INVALID_AMOUNT_RAW",
  "BUNDLE_ACCOUNT_NOT_FOUND",
  "ORACLE_DATA_NOT_FOUND",
  "VAULT_PAUSED",
  "BUNDLE_IS_PERMISSIONED",
  "MIN_DEPOSIT_AMOUNT_NOT_MET",
  "BUILDER_DEPOSIT_AMOUNT_TOO_LOW",
  "REFERRALS_DISABLED",
  "INVALID_REFERRER",
  "REFERRAL_ALREADY_SET",
  "USER_BUNDLE_ACCOUNT_HAS_ACTIVITY",
  "REFERRER_NOT_REGISTERED",
  "REFERRER_DEACTIVATED",
  "REFERRER_DEPOSIT_TOO_LOW",
  "REFERRER_ALREADY_REGISTERED",
  "REFERRER_ACCOUNT_MISMATCH",
  "USER_BUNDLE_ACCOUNT_NOT_FOUND",
  "PENDING_DEPOSIT_EXISTS",
  "WITHDRAWAL_ALREADY_PENDING",
  "WITHDRAWAL_SHARES_ZERO",
  "NO_ACCRUED_REFERRAL_SHARES",
  "WITHDRAWAL_VALUE_TOO_SMALL",
  "INVALID_FEE_CONFIG"
] as const satisfies ReadonlyArray<RejectionCode | AttributionReason>

export type BuildRejectionCode = (typeof BUILD_REJECTION_CODES)[number]

export class BuildRejection extends Data.TaggedError("BuildRejection")<{
  readonly code: BuildRejectionCode
  readonly message: string
  /** BUILDER_DEPOSIT_AMOUNT_TOO_LOW: the smallest gross amount that would be accepted. */
  readonly requiredGrossDepositAmount?: bigint
  /** REFERRAL_ALREADY_SET: the builder the position is already bound to. */
  readonly existingReferrer?: Address
}> {}

export const reject = (code: BuildRejectionCode, message: string): BuildRejection =>
  new BuildRejection({ code, message })
