// The `data` of builder answers, with the real service's field names (facts §10.5) plus a few
// additions for clients that verify what they sign. Raw amounts are base-10 strings.
import type { LegacyWireInstruction } from "../../tx/legacyInstruction.ts"
import type { AttributionReason } from "../../errors/codes.ts"
import type { RejectionReason } from "./rejections.ts"

export interface Validation {
  readonly accepted: boolean
  readonly rejectionReasons: ReadonlyArray<RejectionReason>
}

export type Attribution =
  | {
      readonly applied: true
      /** The builder wallet the deposit binds the user to. */
      readonly referrer: string
      readonly code?: string
    }
  | {
      readonly applied: false
      /** The builders' attribution codes plus the two only a code lookup produces (facts §7). */
      readonly reason: AttributionReason
      /** The builder the position is already bound to (REFERRAL_ALREADY_SET). */
      readonly existingReferrer?: string
      readonly existingReferrerMatchesRequest?: boolean
      /** BUILDER_DEPOSIT_AMOUNT_TOO_LOW: the smallest gross amount that would be attributed. */
      readonly requiredGrossDepositAmount?: string
    }

/** The transaction part of an accepted build. */
export interface BuiltTransaction {
  /** Unsigned v0 wire transaction, standard base64; the one signature slot zero-filled. */
  readonly transactionBase64: string
  /** The same instructions in the legacy wire shape, in transaction order. */
  readonly instructions: ReadonlyArray<LegacyWireInstruction>
  readonly blockhash: string
  readonly lastValidBlockHeight: number
  /** Exactly `[userAddress]`. */
  readonly signers: ReadonlyArray<string>
  readonly computeUnitLimit: number
  readonly priorityFeeMicroLamports: string
  /** "skipped": the compute-unit limit is an estimate, no preflight ran. */
  readonly simulation: "simulated" | "skipped"
}

interface Target {
  readonly vaultAddress: string
  readonly userAddress: string
}

export type Rejected = Target & { readonly validation: Validation & { readonly accepted: false } }

export type AcceptedDeposit = Target &
  BuiltTransaction & {
    readonly validation: Validation & { readonly accepted: true }
    /** Present when the request asked for attribution. */
    readonly attribution?: Attribution
    readonly amountRaw: string
    /** Deposit fee at the user's effective rate, rounded up, and what remains for shares. */
    readonly feeAmountRaw: string
    readonly netAmountRaw: string
    /** The transaction opens the user's position (initialize_bundle_depositor). */
    readonly initializesUserAccount: boolean
  }

export type RejectedDeposit = Rejected & { readonly attribution?: Attribution }

export type DepositBuildResponse = AcceptedDeposit | RejectedDeposit

export type AcceptedWithdrawal = Target &
  BuiltTransaction & {
    readonly validation: Validation & { readonly accepted: true }
    /** The shares request_withdrawal encodes. */
    readonly sharesAmount: string
    /** Estimates at the current price: the value can change during the cooldown. */
    readonly estimatedWithdrawalValueRaw: string
    readonly estimatedWithdrawalFeeRaw: string
    readonly estimatedNetAmountRaw: string
    readonly cooldownSeconds: number
    /** Unix seconds: cooldown end, or the redemption cycle's unlock when later. */
    readonly estimatedAvailableTimestamp: number
    /** Where the keeper pays out (created idempotently by the transaction). */
    readonly userTokenAccount: string
  }

export type WithdrawBuildResponse = AcceptedWithdrawal | Rejected

export const accepted = { accepted: true, rejectionReasons: [] } as const satisfies Validation

export const rejectedBecause = (reasons: ReadonlyArray<RejectionReason>): Validation & { readonly accepted: false } => ({
  accepted: false,
  rejectionReasons: reasons
})
