import { Schema } from "effect"
import { ProjectionUnavailable } from "../domain/errors.ts"
import { codeLiteral } from "../errors/codeLiteral.ts"
import { errorClassAnnotations, errorResponse } from "./errorResponse.ts"

/**
 * The API's typed errors. Each class is what a handler fails with; each `...Response` schema is what
 * an endpoint declares with `.addError(...)`: it puts the error on the wire as the envelope
 * `{success:false, error:"<CODE>", message, ...details}` with the status the error-code registry
 * (src/errors/codes.ts) gives the class's codes; every code is declared there first.
 */

/** Which 400 a schema's decoding failure becomes; annotate a schema with it (e.g. `Address`). */
export const BadRequestCodeId: unique symbol = Symbol.for("vault-gateway/api/BadRequestCode")

export const BadRequestCode = codeLiteral(
  "BAD_REQUEST",
  "INVALID_ADDRESS",
  "INVALID_CURSOR",
  "INVALID_QUERY",
  "MALFORMED_JSON",
  "INVALID_PATH",
  "INVALID_BODY"
)
export type BadRequestCode = typeof BadRequestCode.Type

export class BadRequest extends Schema.TaggedError<BadRequest>()(
  "BadRequest",
  { code: BadRequestCode, message: Schema.String },
  errorClassAnnotations(BadRequestCode, "The request is malformed")
) {}

const UnauthorizedCode = codeLiteral("UNAUTHORIZED")
export class Unauthorized extends Schema.TaggedError<Unauthorized>()(
  "Unauthorized",
  { code: UnauthorizedCode, message: Schema.String },
  errorClassAnnotations(UnauthorizedCode, "Missing or unknown credential")
) {}

const ForbiddenCode = codeLiteral("FORBIDDEN", "WRONG_ENVIRONMENT", "INSUFFICIENT_SCOPE")
export class Forbidden extends Schema.TaggedError<Forbidden>()(
  "Forbidden",
  { code: ForbiddenCode, message: Schema.String },
  errorClassAnnotations(ForbiddenCode, "The credential may not do this")
) {}

const NotFoundCode = codeLiteral("NOT_FOUND", "VAULT_NOT_FOUND", "NO_POSITION")
export class NotFound extends Schema.TaggedError<NotFound>()(
  "NotFound",
  { code: NotFoundCode, message: Schema.String },
  errorClassAnnotations(NotFoundCode, "No such resource")
) {}

const MethodNotAllowedCode = codeLiteral("METHOD_NOT_ALLOWED")
export class MethodNotAllowed extends Schema.TaggedError<MethodNotAllowed>()(
  "MethodNotAllowed",
  { code: MethodNotAllowedCode, message: Schema.String, allow: Schema.Array(Schema.String) },
  errorClassAnnotations(MethodNotAllowedCode, "The path exists but not for this method")
) {}

const PayloadTooLargeCode = codeLiteral("PAYLOAD_TOO_LARGE")
export class PayloadTooLarge extends Schema.TaggedError<PayloadTooLarge>()(
  "PayloadTooLarge",
  { code: PayloadTooLargeCode, message: Schema.String, limitBytes: Schema.Int },
  errorClassAnnotations(PayloadTooLargeCode, "The request body is over the limit")
) {}

const UriTooLongCode = codeLiteral("URI_TOO_LONG")
export class UriTooLong extends Schema.TaggedError<UriTooLong>()(
  "UriTooLong",
  { code: UriTooLongCode, message: Schema.String, limitBytes: Schema.Int },
  errorClassAnnotations(UriTooLongCode, "The request target (path and query) is over the limit")
) {}

const RateLimitedCode = codeLiteral("RATE_LIMITED")
export class RateLimited extends Schema.TaggedError<RateLimited>()(
  "RateLimited",
  {
    code: RateLimitedCode,
    message: Schema.String,
    limit: Schema.Int,
    remaining: Schema.Int,
    /** Unix seconds when the current window ends. */
    reset: Schema.Int,
    retryAfterSeconds: Schema.Int
  },
  errorClassAnnotations(RateLimitedCode, "Quota exceeded; wait for the reset")
) {}

const HeadersTooLargeCode = codeLiteral("HEADERS_TOO_LARGE")
export class HeadersTooLarge extends Schema.TaggedError<HeadersTooLarge>()(
  "HeadersTooLarge",
  { code: HeadersTooLargeCode, message: Schema.String, limitBytes: Schema.Int },
  errorClassAnnotations(HeadersTooLargeCode, "The request headers are over the limit")
) {}

const UpgradeRequiredCode = codeLiteral("UPGRADE_REQUIRED")
export class UpgradeRequired extends Schema.TaggedError<UpgradeRequired>()(
  "UpgradeRequired",
  { code: UpgradeRequiredCode, message: Schema.String },
  errorClassAnnotations(UpgradeRequiredCode, "A WebSocket endpoint asked without the upgrade")
) {}

const InternalErrorCode = codeLiteral("INTERNAL")
export class InternalError extends Schema.TaggedError<InternalError>()(
  "InternalError",
  { code: InternalErrorCode, message: Schema.String, requestId: Schema.String },
  errorClassAnnotations(InternalErrorCode, "Unexpected failure, logged with the request id")
) {}

export { ProjectionUnavailable }

export const BadRequestResponse = errorResponse(BadRequest)
export const UnauthorizedResponse = errorResponse(Unauthorized)
export const ForbiddenResponse = errorResponse(Forbidden)
export const NotFoundResponse = errorResponse(NotFound)
export const MethodNotAllowedResponse = errorResponse(MethodNotAllowed)
export const PayloadTooLargeResponse = errorResponse(PayloadTooLarge)
export const UriTooLongResponse = errorResponse(UriTooLong)
export const RateLimitedResponse = errorResponse(RateLimited)
export const HeadersTooLargeResponse = errorResponse(HeadersTooLarge)
export const UpgradeRequiredResponse = errorResponse(UpgradeRequired)
export const InternalErrorResponse = errorResponse(InternalError)
export const ProjectionUnavailableResponse = errorResponse(ProjectionUnavailable, {
  description: "The projection is not live (starting, restoring, catching up or degraded); retry later"
})

/** Every wire error schema above, for checks that codes and statuses stay stable. */
export const allErrorResponses = [
  BadRequestResponse,
  UnauthorizedResponse,
  ForbiddenResponse,
  NotFoundResponse,
  MethodNotAllowedResponse,
  PayloadTooLargeResponse,
  UriTooLongResponse,
  RateLimitedResponse,
  HeadersTooLargeResponse,
  UpgradeRequiredResponse,
  InternalErrorResponse,
  ProjectionUnavailableResponse
] as const
