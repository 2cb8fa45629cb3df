import type { Address } from "@solana/kit"
import { Either } from "effect"
import { malformed, type MalformedRequest } from "./errors.ts"
import {
  readAmountRaw,
  readBoolean,
  readCode,
  readObject,
  readPriorityFee,
  readReferrerAddress,
  readSharesRaw,
  readUserAddress
} from "./requestFields.ts"

/** Whom a deposit should be attributed to: a builder wallet, or a code that resolves to one. */
export type AttributionTarget =
  | { readonly kind: "referrer"; readonly referrer: Address }
  | { readonly kind: "code"; readonly code: string }

export interface DepositRequest {
  readonly userAddress: Address
  /** Gross raw asset units. */
  readonly amount: bigint
  readonly attribution: AttributionTarget | null
  /** Strict attribution: refuse rather than build an unattributed deposit. */
  readonly requireAttribution: boolean
  /** Null: use the service's current estimate. */
  readonly priorityFeeMicroLamports: bigint | null
}

export type WithdrawSize = { readonly amount: bigint } | { readonly withdrawAll: true }

export interface WithdrawRequest {
  readonly userAddress: Address
  readonly size: WithdrawSize
  readonly priorityFeeMicroLamports: bigint | null
}

const DEPOSIT_FIELDS = ["code", "referrer", "requireAttribution", "priorityFeeMicroLamports"]
const WITHDRAW_FIELDS = ["amountRaw", "withdrawAll", "priorityFeeMicroLamports"]

/** `{userAddress, amountRaw, code?, referrer?, requireAttribution?, priorityFeeMicroLamports?}` (facts §10.5). */
export const parseDepositRequest = (body: unknown): Either.Either<DepositRequest, MalformedRequest> => {
  // plain early returns rather than Either.gen: this runs on every deposit request
  const object = readObject(body, ["userAddress", "amountRaw"], DEPOSIT_FIELDS)
  if (Either.isLeft(object)) return Either.left(object.left)
  const fields = object.right
  if (fields.code !== undefined && fields.referrer !== undefined) {
    return Either.left(malformed("CONFLICTING_FIELDS", `give at most one of "code" and "referrer"`))
  }
  const userAddress = readUserAddress(fields.userAddress)
  if (Either.isLeft(userAddress)) return Either.left(userAddress.left)
  const amount = readAmountRaw(fields.amountRaw, "amountRaw")
  if (Either.isLeft(amount)) return Either.left(amount.left)
  let attribution: AttributionTarget | null = null
  if (fields.referrer !== undefined) {
    const referrer = readReferrerAddress(fields.referrer)
    if (Either.isLeft(referrer)) return Either.left(referrer.left)
    attribution = { kind: "referrer", referrer: referrer.right }
  } else if (fields.code !== undefined) {
    const code = readCode(fields.code)
    if (Either.isLeft(code)) return Either.left(code.left)
    attribution = { kind: "code", code: code.right }
  }
  const strict = readBoolean(fields.requireAttribution, "requireAttribution")
  if (Either.isLeft(strict)) return Either.left(strict.left)
  const requireAttribution = strict.right ?? false
  if (requireAttribution && attribution === null) {
    return Either.left(malformed("MISSING_FIELD", `"requireAttribution" needs a "code" or a "referrer" to attribute the deposit to`))
  }
  const fee = readPriorityFee(fields.priorityFeeMicroLamports)
  if (Either.isLeft(fee)) return Either.left(fee.left)
  return Either.right({
    userAddress: userAddress.right,
    amount: amount.right,
    attribution,
    requireAttribution,
    priorityFeeMicroLamports: fee.right
  })
}

/** `{userAddress, amountRaw}` or `{userAddress, withdrawAll: true}`, plus `priorityFeeMicroLamports?`. */
export const parseWithdrawRequest = (body: unknown): Either.Either<WithdrawRequest, MalformedRequest> => {
  const object = readObject(body, ["userAddress"], WITHDRAW_FIELDS)
  if (Either.isLeft(object)) return Either.left(object.left)
  const fields = object.right
  const hasAmount = fields.amountRaw !== undefined
  const hasWithdrawAll = fields.withdrawAll !== undefined
  if (hasAmount === hasWithdrawAll) {
    return Either.left(
      malformed(hasAmount ? "CONFLICTING_FIELDS" : "MISSING_FIELD", `give exactly one of "amountRaw" and "withdrawAll": true`)
    )
  }
  const userAddress = readUserAddress(fields.userAddress)
  if (Either.isLeft(userAddress)) return Either.left(userAddress.left)
  let size: WithdrawSize
  if (hasAmount) {
    const amount = readAmountRaw(fields.amountRaw, "amountRaw")
    if (Either.isLeft(amount)) return Either.left(amount.left)
    size = { amount: amount.right }
  } else if (fields.withdrawAll === true) {
    size = { withdrawAll: true }
  } else {
    return Either.left(malformed("INVALID_FIELD", `"withdrawAll" must be true when given (use "amountRaw" otherwise)`))
  }
  const fee = readPriorityFee(fields.priorityFeeMicroLamports)
  if (Either.isLeft(fee)) return Either.left(fee.left)
  return Either.right({ userAddress: userAddress.right, size, priorityFeeMicroLamports: fee.right })
}

/** The code the route must resolve before building (none for an empty code: that fails attribution). */
export const codeToResolve = (request: DepositRequest): string | null =>
  request.attribution?.kind === "code" && request.attribution.code !== "" ? request.attribution.code : null

// ---------------------------------------------------------------------------------------------
// Previews: query parameters (a repeated parameter arrives as an array and is malformed)

export interface DepositPreviewRequest {
  readonly amount: bigint
}

export type WithdrawPreviewRequest = { readonly shares: bigint } | { readonly amount: bigint }

const single = (value: unknown, field: string): Either.Either<unknown, MalformedRequest> =>
  Array.isArray(value) ? Either.left(malformed("INVALID_FIELD", `"${field}" is given more than once`)) : Either.right(value)

/** `?amountRaw=<gross raw units>`. */
export const parseDepositPreviewQuery = (query: unknown): Either.Either<DepositPreviewRequest, MalformedRequest> =>
  Either.gen(function* () {
    const fields = yield* readObject(query, ["amountRaw"], [])
    return { amount: yield* readAmountRaw(yield* single(fields.amountRaw, "amountRaw"), "amountRaw") }
  })

/** `?sharesRaw=<shares>` or `?amountRaw=<raw asset units>`, exactly one. */
export const parseWithdrawPreviewQuery = (query: unknown): Either.Either<WithdrawPreviewRequest, MalformedRequest> =>
  Either.gen(function* () {
    const fields = yield* readObject(query, [], ["sharesRaw", "amountRaw"])
    const hasShares = fields.sharesRaw !== undefined
    if (hasShares === (fields.amountRaw !== undefined)) {
      return yield* Either.left(
        malformed(hasShares ? "CONFLICTING_FIELDS" : "MISSING_FIELD", `give exactly one of "sharesRaw" and "amountRaw"`)
      )
    }
    return hasShares
      ? { shares: yield* readSharesRaw(yield* single(fields.sharesRaw, "sharesRaw"), "sharesRaw") }
      : { amount: yield* readAmountRaw(yield* single(fields.amountRaw, "amountRaw"), "amountRaw") }
  })
