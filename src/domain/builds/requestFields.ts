// Readers for the fields of builder and preview requests. Each returns the parsed value or a
// MalformedRequest naming the field; none throws, whatever the input.
import type { Address } from "@solana/kit"
import { Either } from "effect"
import { addressBytesOf } from "../../ntbundle/addressBytes.ts"
import { decodeBase58Bytes32 } from "../../ntbundle/base58.ts"
import { parseAmountRaw } from "../../ntbundle/builders/common.ts"
import { isOnEd25519Curve } from "../../ntbundle/ed25519.ts"
import { AdmittedCache } from "../../admittedCache.ts"
import { malformed, type MalformedRequest } from "./errors.ts"

export type Fields = Readonly<Record<string, unknown>>

const U64_MAX = 2n ** 64n - 1n
const CANONICAL_UNSIGNED = /^(0|[1-9][0-9]{0,19})$/
const MAX_CODE_LENGTH = 64

const describe = (value: unknown): string =>
  value === null ? "null" : Array.isArray(value) ? "an array" : typeof value === "string" ? `"${value.slice(0, 40)}"` : typeof value

/**
 * The body as a plain object whose keys are all known and whose required keys are present
 * (a `null` optional field counts as absent).
 */
export const readObject = (
  body: unknown,
  required: ReadonlyArray<string>,
  optional: ReadonlyArray<string>
): Either.Either<Fields, MalformedRequest> => {
  if (typeof body !== "object" || body === null || Array.isArray(body)) {
    return Either.left(malformed("INVALID_BODY", `the body must be a JSON object, got ${describe(body)}`))
  }
  const fields: Record<string, unknown> = {}
  for (const key of Object.keys(body)) {
    if (!required.includes(key) && !optional.includes(key)) {
      return Either.left(
        malformed("UNKNOWN_FIELD", `unknown field "${key.slice(0, 40)}"; allowed: ${[...required, ...optional].join(", ")}`)
      )
    }
    const value: unknown = (body as Record<string, unknown>)[key]
    if (value !== null || required.includes(key)) fields[key] = value
  }
  for (const key of required) {
    if (!Object.hasOwn(fields, key)) return Either.left(malformed("MISSING_FIELD", `"${key}" is required`))
  }
  return Either.right(fields)
}

const onCurveCache = new AdmittedCache<boolean>(50_000)

/** A wallet address: base58 of 32 bytes on the ed25519 curve (an off-curve key is a PDA, which cannot sign). */
export const readUserAddress = (value: unknown, field = "userAddress"): Either.Either<Address, MalformedRequest> => {
  // through the shared memo: the build derives this wallet's addresses from the same bytes next
  const bytes = typeof value === "string" ? addressBytesOf(value) : null
  if (bytes === null) {
    return Either.left(malformed("INVALID_USER_ADDRESS", `"${field}" must be a base58 Solana address, got ${describe(value)}`))
  }
  const text = value as string
  if (!onCurveCache.getOrCompute(text, () => isOnEd25519Curve(bytes))) {
    return Either.left(
      malformed("USER_ADDRESS_OFF_CURVE", `"${field}" ${text} is off the ed25519 curve (a program address): it cannot sign`)
    )
  }
  return Either.right(text as Address)
}

/** Any 32-byte base58 address (a referrer may be program-controlled). */
export const readReferrerAddress = (value: unknown): Either.Either<Address, MalformedRequest> =>
  typeof value === "string" && decodeBase58Bytes32(value) !== null
    ? Either.right(value as Address)
    : Either.left(malformed("INVALID_REFERRER_ADDRESS", `"referrer" must be a base58 Solana address, got ${describe(value)}`))

/** A canonical base-10 string of a u64 above zero. */
export const readAmountRaw = (
  value: unknown,
  field: string,
  code: "INVALID_AMOUNT_RAW" | "INVALID_SHARES_RAW" = "INVALID_AMOUNT_RAW"
): Either.Either<bigint, MalformedRequest> => {
  if (typeof value !== "string") {
    return Either.left(malformed(code, `"${field}" must be a string of raw base units, got ${describe(value)}`))
  }
  return Either.mapLeft(parseAmountRaw(value), () =>
    malformed(code, `"${field}" must be a canonical integer string from 1 to ${U64_MAX}, got ${describe(value)}`)
  )
}

/** Like readAmountRaw but within u128 (share counts). */
export const readSharesRaw = (value: unknown, field: string): Either.Either<bigint, MalformedRequest> => {
  const text = typeof value === "string" ? value : ""
  if (!/^[1-9][0-9]{0,38}$/.test(text) || BigInt(text) >= 2n ** 128n) {
    return Either.left(
      malformed("INVALID_SHARES_RAW", `"${field}" must be a canonical integer string from 1 to 2^128-1, got ${describe(value)}`)
    )
  }
  return Either.right(BigInt(text))
}

/** Micro-lamports per compute unit: a u64 as a canonical string or a safe non-negative integer. */
export const readPriorityFee = (value: unknown): Either.Either<bigint | null, MalformedRequest> => {
  if (value === undefined) return Either.right(null)
  if (typeof value === "number" && Number.isSafeInteger(value) && value >= 0) return Either.right(BigInt(value))
  if (typeof value === "string" && CANONICAL_UNSIGNED.test(value) && BigInt(value) <= U64_MAX) return Either.right(BigInt(value))
  return Either.left(
    malformed("INVALID_PRIORITY_FEE", `"priorityFeeMicroLamports" must be an unsigned 64-bit integer, got ${describe(value)}`)
  )
}

export const readBoolean = (value: unknown, field: string): Either.Either<boolean | null, MalformedRequest> =>
  value === undefined
    ? Either.right(null)
    : typeof value === "boolean"
      ? Either.right(value)
      : Either.left(malformed("INVALID_FIELD", `"${field}" must be a boolean, got ${describe(value)}`))

/**
 * A builder code, trimmed. An empty code is not malformed: like the official SDK it fails the
 * attribution (INVALID_REFERRER_CODE) rather than the request.
 */
export const readCode = (value: unknown): Either.Either<string, MalformedRequest> =>
  typeof value === "string" && value.trim().length <= MAX_CODE_LENGTH
    ? Either.right(value.trim())
    : Either.left(malformed("INVALID_CODE", `"code" must be a string of at most ${MAX_CODE_LENGTH} characters, got ${describe(value)}`))
