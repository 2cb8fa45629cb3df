import { HttpApiSchema } from "@effect/platform"
import { Schema } from "effect"
import { ProjectionUnavailable } from "../domain/errors.ts"
import { errorResponse } from "./errorResponse.ts"

/**
 * The API's typed errors. Each class is what a handler fails with; each `...Response` schema is what
 * an endpoint declares with `.addError(...)`: it puts the error on the wire as the envelope
 * `{success:false, error:"<CODE>", message, ...details}` with the class's status.
 *
 * Codes are append-only: add new ones at the end of a list, never rename or re-mean one.
 */

/** Which 400 a schema's decoding failure becomes; annotate a schema with it (e.g. `Address`). */
export const BadRequestCodeId: unique symbol = Symbol.for("vault-gateway/api/BadRequestCode")

export const BadRequestCode = Schema.Literal(
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
  HttpApiSchema.annotations({ status: 400, description: "The request is malformed" })
) {}

export class Unauthorized extends Schema.TaggedError<Unauthorized>()(
  "Unauthorized",
  { code: Schema.Literal("UNAUTHORIZED"), message: Schema.String },
  HttpApiSchema.annotations({ status: 401, description: "Missing or unknown credential" })
) {}

export class Forbidden extends Schema.TaggedError<Forbidden>()(
  "Forbidden",
  { code: Schema.Literal("FORBIDDEN", "WRONG_ENVIRONMENT", "INSUFFICIENT_SCOPE"), message: Schema.String },
  HttpApiSchema.annotations({ status: 403, description: "The credential may not do this" })
) {}

export class NotFound extends Schema.TaggedError<NotFound>()(
  "NotFound",
  { code: Schema.Literal("NOT_FOUND", "VAULT_NOT_FOUND", "NO_POSITION"), message: Schema.String },
  HttpApiSchema.annotations({ status: 404, description: "No such resource" })
) {}

export class MethodNotAllowed extends Schema.TaggedError<MethodNotAllowed>()(
  "MethodNotAllowed",
  { code: Schema.Literal("METHOD_NOT_ALLOWED"), message: Schema.String, allow: Schema.Array(Schema.String) },
  HttpApiSchema.annotations({ status: 405, description: "The path exists but not for this method" })
) {}

export class PayloadTooLarge extends Schema.TaggedError<PayloadTooLarge>()(
  "PayloadTooLarge",
  { code: Schema.Literal("PAYLOAD_TOO_LARGE"), message: Schema.String, limitBytes: Schema.Int },
  HttpApiSchema.annotations({ status: 413, description: "The request body is over the limit" })
) {}

export class UriTooLong extends Schema.TaggedError<UriTooLong>()(
  "UriTooLong",
  { code: Schema.Literal("URI_TOO_LONG"), message: Schema.String, limitBytes: Schema.Int },
  HttpApiSchema.annotations({ status: 414, description: "The request target (path and query) is over the limit" })
) {}

export class RateLimited extends Schema.TaggedError<RateLimited>()(
  "RateLimited",
  {
    code: Schema.Literal("RATE_LIMITED"),
    message: Schema.String,
    limit: Schema.Int,
    remaining: Schema.Int,
    /** Unix seconds when the current window ends. */
    reset: Schema.Int,
    retryAfterSeconds: Schema.Int
  },
  HttpApiSchema.annotations({ status: 429, description: "Quota exceeded; wait for the reset" })
) {}

export class HeadersTooLarge extends Schema.TaggedError<HeadersTooLarge>()(
  "HeadersTooLarge",
  { code: Schema.Literal("HEADERS_TOO_LARGE"), message: Schema.String, limitBytes: Schema.Int },
  HttpApiSchema.annotations({ status: 431, description: "The request headers are over the limit" })
) {}

export class InternalError extends Schema.TaggedError<InternalError>()(
  "InternalError",
  { code: Schema.Literal("INTERNAL"), message: Schema.String, requestId: Schema.String },
  HttpApiSchema.annotations({ status: 500, description: "Unexpected failure, logged with the request id" })
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
export const InternalErrorResponse = errorResponse(InternalError)
export const ProjectionUnavailableResponse = errorResponse(ProjectionUnavailable, {
  status: 503,
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
  InternalErrorResponse,
  ProjectionUnavailableResponse
] as const
