// The documented shapes of builder and preview requests and answers (facts §10.5, §10.6). The
// handlers type their answers as these schemas' wire form (wireEncoder), so a field the build core
// drops or retypes without this file fails to type-check; one it adds is caught by
// test/api/builds/buildSchemas.test.ts and the builder fuzz, which decode real answers strictly.
import { Schema, SchemaAST } from "effect"
import { ATTRIBUTION_REASONS, type AttributionReason } from "../../errors/codes.ts"
import { BUILD_REJECTION_CODES } from "../../ntbundle/builders/rejection.ts"
import { GATEWAY_REJECTION_CODES } from "../../domain/builds/rejections.ts"
import { PreEncoded } from "../preEncoded.ts"
import { Address, ADDRESS_PATTERN, AsOf } from "../schemas.ts"

const CANONICAL_UNSIGNED = /^(0|[1-9][0-9]*)$/
const CANONICAL_POSITIVE = /^[1-9][0-9]*$/

/** A canonical unsigned integer string (zero allowed), as answers carry raw amounts. */
export const RawUnsigned = Schema.String.pipe(Schema.pattern(CANONICAL_UNSIGNED)).annotations({
  identifier: "RawUnsigned",
  description: "canonical unsigned base-10 integer string (raw minor units, shares or micro-lamports)",
  examples: ["5000000"]
})

const U64_INPUT = "raw minor units as a canonical base-10 string, 1 to 2^64-1 (no sign, no leading zeros)"
const U128_INPUT = "raw shares as a canonical base-10 string, 1 to 2^128-1 (no sign, no leading zeros)"

/** Amounts in request bodies (documentation only: the build core checks them, INVALID_AMOUNT_RAW). */
const RawAmountInput = Schema.String.pipe(Schema.pattern(CANONICAL_POSITIVE), Schema.maxLength(20)).annotations({
  identifier: "RawAmountInput",
  description: U64_INPUT,
  examples: ["1000000"]
})

/**
 * A query parameter the build core parses itself (so its 400 codes and messages stay its own): the
 * transport takes any text, the document shows the canonical form.
 */
export const queryAmount = (description: string, shares = false) =>
  Schema.String.annotations({
    jsonSchema: {
      type: "string",
      pattern: CANONICAL_POSITIVE.source,
      maxLength: shares ? 39 : 20,
      description: `${description}: ${shares ? U128_INPUT : U64_INPUT}`
    }
  })

/** An address with its own description (a refinement's description reaches the document only with a jsonSchema annotation). */
const addressThat = (description: string) => Address.annotations({ description, jsonSchema: { pattern: ADDRESS_PATTERN } })

const WalletAddress = addressThat("base58 wallet address on the ed25519 curve (it signs the transaction); a program address is refused")

const PriorityFee = Schema.Union(
  RawUnsigned,
  Schema.NonNegativeInt
).annotations({
  description: "micro-lamports per compute unit (u64, string or safe integer); absent: the service's current estimate"
})

const BodyCommon = {
  userAddress: WalletAddress,
  priorityFeeMicroLamports: Schema.optional(PriorityFee)
}

const BuilderCode = Schema.String.pipe(Schema.maxLength(64)).annotations({
  description: "a builder code (trimmed); unknown or disabled codes leave the deposit unattributed (UNKNOWN_CODE)"
})

const RequireAttribution = Schema.optional(Schema.Boolean).annotations({
  description: "true: refuse (validation.accepted = false, ATTRIBUTION_REQUIRED) rather than build an unattributed deposit"
})

/**
 * The deposit body: unattributed, attributed to a builder wallet, or to a builder code (never both).
 * Documentation of what the build core accepts; the core itself checks the fields one by one.
 */
export const DepositRequest = Schema.Union(
  Schema.Struct({
    ...BodyCommon,
    amountRaw: RawAmountInput,
    requireAttribution: Schema.optional(Schema.Literal(false))
  }).annotations({ title: "unattributed" }),
  Schema.Struct({
    ...BodyCommon,
    amountRaw: RawAmountInput,
    referrer: addressThat("the builder wallet to attribute the deposit to"),
    requireAttribution: RequireAttribution
  }).annotations({ title: "attributed to a builder wallet" }),
  Schema.Struct({
    ...BodyCommon,
    amountRaw: RawAmountInput,
    code: BuilderCode,
    requireAttribution: RequireAttribution
  }).annotations({ title: "attributed through a builder code" })
).annotations({
  identifier: "DepositRequest",
  description: "Gross deposit in the vault asset's raw units; optionally attributed through `referrer` or `code` (at most one)."
})

/** The withdraw body: an asset amount (converted to shares at the current price) or the whole position. */
export const WithdrawRequest = Schema.Union(
  Schema.Struct({
    ...BodyCommon,
    amountRaw: RawAmountInput
  }).annotations({ title: "an amount" }),
  Schema.Struct({ ...BodyCommon, withdrawAll: Schema.Literal(true) }).annotations({ title: "the whole position" })
).annotations({
  identifier: "WithdrawRequest",
  description: "Exactly one of `amountRaw` (raw asset units, converted to shares at the current price) and `withdrawAll: true`."
})

/**
 * What the transport decodes: any JSON object, so that the build core answers each bad field with
 * its own stable 400 code (MISSING_FIELD, INVALID_AMOUNT_RAW, ...). The document shows `documented`
 * in its place (JSON Schema generation follows the surrogate).
 */
export const bodyDocumentedAs = (documented: Schema.Schema.Any) =>
  Schema.Record({ key: Schema.String, value: Schema.Unknown }).annotations({
    [SchemaAST.SurrogateAnnotationId]: documented.ast
  })

// -------------------------------------------------------------------------------------------------
// Answers

export const RejectionReason = Schema.Struct({
  code: Schema.Literal(...BUILD_REJECTION_CODES, ...GATEWAY_REJECTION_CODES),
  message: Schema.String
}).annotations({ identifier: "RejectionReason", description: "a policy refusal: stable machine code and a text" })

const ReasonList = Schema.Array(RejectionReason)

const AcceptedValidation = Schema.Struct({
  accepted: Schema.Literal(true),
  rejectionReasons: Schema.Array(RejectionReason).pipe(
    Schema.filter((reasons) => reasons.length === 0, { jsonSchema: { maxItems: 0 }, description: "empty when accepted" })
  )
}).annotations({ identifier: "AcceptedValidation" })

const RefusedValidation = Schema.Struct({
  accepted: Schema.Literal(false),
  rejectionReasons: Schema.Array(RejectionReason).pipe(Schema.minItems(1))
}).annotations({ identifier: "RefusedValidation" })

export const AttributionApplied = Schema.Struct({
  applied: Schema.Literal(true),
  referrer: addressThat("the builder wallet the deposit binds the user to"),
  code: Schema.optional(Schema.String)
}).annotations({ identifier: "AttributionApplied" })

export const AttributionNotApplied = Schema.Struct({
  applied: Schema.Literal(false),
  reason: Schema.Literal(...(ATTRIBUTION_REASONS as readonly [AttributionReason, ...Array<AttributionReason>])),
  existingReferrer: Schema.optional(addressThat("the builder the position is bound to already")),
  existingReferrerMatchesRequest: Schema.optional(Schema.Boolean),
  requiredGrossDepositAmount: Schema.optional(
    RawUnsigned.annotations({ description: "BUILDER_DEPOSIT_AMOUNT_TOO_LOW: the smallest gross amount that would be attributed" })
  )
}).annotations({
  identifier: "AttributionNotApplied",
  description: "why the deposit is not attributed (the transaction, if any, is a plain deposit)"
})

export const Attribution = Schema.Union(AttributionApplied, AttributionNotApplied).annotations({
  identifier: "Attribution",
  description: "present when the request asked for attribution (referrer or code)"
})

export const LegacyWireInstruction = Schema.Struct({
  programId: Address,
  accounts: Schema.Array(
    Schema.Struct({ pubkey: Address, isSigner: Schema.Boolean, isWritable: Schema.Boolean }).annotations({
      identifier: "LegacyWireAccount"
    })
  ),
  dataBase64: Schema.String
}).annotations({
  identifier: "LegacyWireInstruction",
  description: "an instruction in the legacy (v1 API, web3.js) wire shape, its own account metas unmerged"
})

const Target = {
  vaultAddress: Address,
  userAddress: Address
}

const BuiltTransaction = {
  transactionBase64: Schema.String.annotations({
    description: "unsigned v0 wire transaction, standard base64; the one signature slot zero-filled"
  }),
  instructions: Schema.Array(LegacyWireInstruction).annotations({ description: "the same instructions, in transaction order" }),
  blockhash: Schema.String,
  lastValidBlockHeight: Schema.NonNegativeInt.annotations({ description: "submit before this block height" }),
  signers: Schema.Array(Address).annotations({ description: "exactly [userAddress]" }),
  computeUnitLimit: Schema.NonNegativeInt,
  priorityFeeMicroLamports: RawUnsigned,
  simulation: Schema.Literal("simulated", "skipped").annotations({
    description: "\"skipped\": computeUnitLimit is the per-instruction estimate, no preflight ran"
  }),
  validation: AcceptedValidation
}

export const AcceptedDeposit = Schema.Struct({
  ...Target,
  ...BuiltTransaction,
  attribution: Schema.optional(Attribution),
  amountRaw: RawUnsigned,
  feeAmountRaw: RawUnsigned.annotations({ description: "deposit fee at the user's effective rate, rounded up" }),
  netAmountRaw: RawUnsigned.annotations({ description: "what remains for shares" }),
  initializesUserAccount: Schema.Boolean.annotations({ description: "the transaction opens the user's position" })
}).annotations({ identifier: "AcceptedDeposit" })

export const RefusedDeposit = Schema.Struct({
  ...Target,
  validation: RefusedValidation,
  attribution: Schema.optional(Attribution)
}).annotations({ identifier: "RefusedDeposit", description: "refused by policy: no transaction" })

export const AcceptedWithdrawal = Schema.Struct({
  ...Target,
  ...BuiltTransaction,
  sharesAmount: RawUnsigned.annotations({ description: "the shares request_withdrawal encodes" }),
  estimatedWithdrawalValueRaw: RawUnsigned.annotations({ description: "at the current price: it can change during the cooldown" }),
  estimatedWithdrawalFeeRaw: RawUnsigned,
  estimatedNetAmountRaw: RawUnsigned,
  cooldownSeconds: Schema.NonNegativeInt,
  estimatedAvailableTimestamp: Schema.Int.annotations({ description: "unix seconds: cooldown end, or the redemption cycle's unlock when later" }),
  userTokenAccount: addressThat("where the keeper pays out (created idempotently by the transaction)")
}).annotations({ identifier: "AcceptedWithdrawal" })

export const RefusedWithdrawal = Schema.Struct({
  ...Target,
  validation: RefusedValidation
}).annotations({ identifier: "RefusedWithdrawal", description: "refused by policy: no transaction" })

const stamped = <A, I>(identifier: string, description: string, data: Schema.Schema<A, I>) =>
  Schema.Struct({
    success: Schema.Literal(true),
    data,
    asOf: AsOf.annotations({ description: "the projection's chain position the build or estimate was computed from" })
  }).annotations({ identifier, description })

export const DepositBuildBody = (description: string) =>
  stamped("DepositBuild", description, Schema.Union(AcceptedDeposit, RefusedDeposit))

export const WithdrawBuildBody = (description: string) =>
  stamped("WithdrawBuild", description, Schema.Union(AcceptedWithdrawal, RefusedWithdrawal))

const NullableRaw = Schema.NullOr(RawUnsigned)

export const DepositPreview = Schema.Struct({
  vaultAddress: Address,
  accepted: Schema.Boolean,
  rejectionReasons: ReasonList,
  grossAmountRaw: RawUnsigned,
  depositFeeBps: Schema.NonNegativeInt,
  feeAmountRaw: RawUnsigned,
  netAmountRaw: RawUnsigned,
  sharePriceRaw: NullableRaw.annotations({ description: "asset units per 10^decimals shares, now; null without an oracle" }),
  estimatedSharesRaw: NullableRaw.annotations({ description: "at today's price; shares are minted at the price of processing" }),
  estimatedProcessingSeconds: Schema.NullOr(Schema.NonNegativeInt).annotations({
    description: "seconds until the keeper's next processing; null when the vault's cadence is unknown"
  }),
  estimatedProcessingTimestamp: Schema.NullOr(Schema.Int),
  estimate: Schema.Literal(true)
}).annotations({ identifier: "DepositPreviewData" })

export const WithdrawPreview = Schema.Struct({
  vaultAddress: Address,
  accepted: Schema.Boolean,
  rejectionReasons: ReasonList,
  sharesRaw: NullableRaw,
  estimatedValueRaw: NullableRaw,
  withdrawalFeeBps: Schema.NonNegativeInt,
  feeAmountRaw: NullableRaw,
  netAmountRaw: NullableRaw,
  cooldownSeconds: Schema.NullOr(Schema.NonNegativeInt),
  estimatedAvailableTimestamp: Schema.NullOr(Schema.Int),
  estimate: Schema.Literal(true)
}).annotations({
  identifier: "WithdrawPreviewData",
  description:
    "numbers are null when the vault has no oracle account (then accepted = false, ORACLE_DATA_NOT_FOUND); the cooldown " +
    "and availability are null when the request exceeds the vault (WITHDRAWAL_EXCEEDS_VAULT)"
})

/** `(body) => PreEncoded` for a body typed as the schema's wire (encoded) form: the build core's answers are plain JSON. */
export const wireEncoder = <S extends Schema.Schema.Any>(_schema: S) => (body: Schema.Schema.Encoded<S>): PreEncoded =>
  new PreEncoded(JSON.stringify(body))

export const DepositPreviewBody = (description: string) => stamped("DepositPreview", description, DepositPreview)
export const WithdrawPreviewBody = (description: string) => stamped("WithdrawPreview", description, WithdrawPreview)
