import { Schema } from "effect"
import type { HttpErrorCode } from "../../errors/codes.ts"
import { codeLiteral } from "../../errors/codeLiteral.ts"
import { errorClassAnnotations, errorResponse } from "../errorResponse.ts"

/** The control plane's typed errors; their codes, statuses and meanings are in the error-code registry. */

/** A tagged error class with a `code` among `codes` (registry codes of one status) and a `message`. */
const codedError = <Self>() =>
<const Tag extends string, const Codes extends readonly [HttpErrorCode, ...Array<HttpErrorCode>]>(
  tag: Tag,
  codes: Codes,
  description: string
) => {
  const code = codeLiteral(...codes)
  return Schema.TaggedError<Self>()(tag, { code, message: Schema.String }, errorClassAnnotations(code, description))
}

export class SessionRequired extends codedError<SessionRequired>()(
  "SessionRequired",
  ["SESSION_REQUIRED"],
  "No live wallet session (signed out, expired, or a partner key instead)"
) {}

export class SignInRefused extends codedError<SignInRefused>()(
  "SignInRefused",
  ["SIWS_NONCE_INVALID", "SIWS_FIELD_MISMATCH", "SIWS_EXPIRED", "SIWS_SIGNATURE_INVALID"],
  "The Sign-In With Solana output does not prove the sign-in"
) {}

export class ControlPlaneBadRequest extends codedError<ControlPlaneBadRequest>()(
  "ControlPlaneBadRequest",
  ["SIWS_MESSAGE_INVALID", "INVALID_CODE", "IDEMPOTENCY_KEY_INVALID"],
  "The control-plane request is malformed"
) {}

export class OriginRefused extends codedError<OriginRefused>()(
  "OriginRefused",
  ["ORIGIN_MISMATCH"],
  "A state-changing request that did not come from the configured origin"
) {}

export class ControlPlaneNotFound extends codedError<ControlPlaneNotFound>()(
  "ControlPlaneNotFound",
  ["KEY_NOT_FOUND", "CODE_NOT_FOUND", "SESSION_NOT_FOUND"],
  "No such key, code or session in this organization"
) {}

export class ControlPlaneConflict extends codedError<ControlPlaneConflict>()(
  "ControlPlaneConflict",
  ["CODE_TAKEN", "WALLET_OWNS_ORGANIZATION", "LIMIT_REACHED", "IDEMPOTENCY_IN_PROGRESS"],
  "The change conflicts with the current state"
) {}

export class IdempotencyKeyReused extends codedError<IdempotencyKeyReused>()(
  "IdempotencyKeyReused",
  ["IDEMPOTENCY_KEY_REUSED"],
  "The Idempotency-Key was used with another request"
) {}

export const SessionRequiredResponse = errorResponse(SessionRequired)
export const SignInRefusedResponse = errorResponse(SignInRefused)
export const ControlPlaneBadRequestResponse = errorResponse(ControlPlaneBadRequest)
export const OriginRefusedResponse = errorResponse(OriginRefused)
export const ControlPlaneNotFoundResponse = errorResponse(ControlPlaneNotFound)
export const ControlPlaneConflictResponse = errorResponse(ControlPlaneConflict)
export const IdempotencyKeyReusedResponse = errorResponse(IdempotencyKeyReused)
