import { HttpApiSchema } from "@effect/platform"
import { Schema } from "effect"
import { errorResponse } from "../errorResponse.ts"

/**
 * The control plane's typed errors, and the table of every code it answers with (`CONTROL_PLANE_ERROR_CODES`)
 * for the project's error-code registry. Codes are append-only.
 */

/** A tagged error class with a `code` among `codes`, a `message`, and an HTTP status. */
const codedError = <Self>() =>
<const Tag extends string, const Codes extends readonly [string, ...Array<string>]>(
  tag: Tag,
  codes: Codes,
  status: number,
  description: string
) =>
  Schema.TaggedError<Self>()(
    tag,
    { code: Schema.Literal(...codes), message: Schema.String },
    HttpApiSchema.annotations({ status, description })
  )

export class SessionRequired extends codedError<SessionRequired>()(
  "SessionRequired",
  ["SESSION_REQUIRED"],
  401,
  "No live wallet session (signed out, expired, or a partner key instead)"
) {}

export class SignInRefused extends codedError<SignInRefused>()(
  "SignInRefused",
  ["SIWS_NONCE_INVALID", "SIWS_FIELD_MISMATCH", "SIWS_EXPIRED", "SIWS_SIGNATURE_INVALID"],
  401,
  "The Sign-In With Solana output does not prove the sign-in"
) {}

export class ControlPlaneBadRequest extends codedError<ControlPlaneBadRequest>()(
  "ControlPlaneBadRequest",
  ["SIWS_MESSAGE_INVALID", "INVALID_CODE", "IDEMPOTENCY_KEY_INVALID"],
  400,
  "The control-plane request is malformed"
) {}

export class OriginRefused extends codedError<OriginRefused>()(
  "OriginRefused",
  ["ORIGIN_MISMATCH"],
  403,
  "A state-changing request that did not come from the configured origin"
) {}

export class ControlPlaneNotFound extends codedError<ControlPlaneNotFound>()(
  "ControlPlaneNotFound",
  ["KEY_NOT_FOUND", "CODE_NOT_FOUND", "SESSION_NOT_FOUND"],
  404,
  "No such key, code or session in this organization"
) {}

export class ControlPlaneConflict extends codedError<ControlPlaneConflict>()(
  "ControlPlaneConflict",
  ["CODE_TAKEN", "WALLET_OWNS_ORGANIZATION", "LIMIT_REACHED", "IDEMPOTENCY_IN_PROGRESS"],
  409,
  "The change conflicts with the current state"
) {}

export class IdempotencyKeyReused extends codedError<IdempotencyKeyReused>()(
  "IdempotencyKeyReused",
  ["IDEMPOTENCY_KEY_REUSED"],
  422,
  "The Idempotency-Key was used with another request"
) {}

export const SessionRequiredResponse = errorResponse(SessionRequired)
export const SignInRefusedResponse = errorResponse(SignInRefused)
export const ControlPlaneBadRequestResponse = errorResponse(ControlPlaneBadRequest)
export const OriginRefusedResponse = errorResponse(OriginRefused)
export const ControlPlaneNotFoundResponse = errorResponse(ControlPlaneNotFound)
export const ControlPlaneConflictResponse = errorResponse(ControlPlaneConflict)
export const IdempotencyKeyReusedResponse = errorResponse(IdempotencyKeyReused)

export interface ErrorCodeEntry {
  readonly code: string
  readonly status: number
  readonly meaning: string
}

/** Every code the control plane (and the key scopes it adds to partner routes) answers with. */
export const CONTROL_PLANE_ERROR_CODES: ReadonlyArray<ErrorCodeEntry> = [
  { code: "SESSION_REQUIRED", status: 401, meaning: "no live wallet session cookie (signed out, idle or past its lifetime; partner keys are not accepted)" },
  { code: "SIWS_NONCE_INVALID", status: 401, meaning: "the sign-in nonce is unknown, already used or expired" },
  { code: "SIWS_FIELD_MISMATCH", status: 401, meaning: "a field of the signed message differs from the issued input (domain, uri, chain id, ...)" },
  { code: "SIWS_EXPIRED", status: 401, meaning: "issuedAt is over 10 minutes from server time, or expirationTime/notBefore excludes now" },
  { code: "SIWS_SIGNATURE_INVALID", status: 401, meaning: "the ed25519 signature or the account's public key does not match the signed message" },
  { code: "SIWS_MESSAGE_INVALID", status: 400, meaning: "the signed message is not a Sign-In With Solana message, lacks a field or is over 2048 bytes" },
  { code: "INVALID_CODE", status: 400, meaning: "a claimed code breaks the character set or length rule" },
  { code: "IDEMPOTENCY_KEY_INVALID", status: 400, meaning: "the Idempotency-Key header is empty, over 255 characters or not printable ASCII" },
  { code: "ORIGIN_MISMATCH", status: 403, meaning: "a state-changing request did not carry the configured public origin in Origin" },
  { code: "INSUFFICIENT_SCOPE", status: 403, meaning: "the partner key lacks the scope the route needs (reads, reporting, builds, stream)" },
  { code: "KEY_NOT_FOUND", status: 404, meaning: "no active key with this id in the organization" },
  { code: "CODE_NOT_FOUND", status: 404, meaning: "the organization holds no such code" },
  { code: "SESSION_NOT_FOUND", status: 404, meaning: "the wallet has no live session with this id" },
  { code: "CODE_TAKEN", status: 409, meaning: "the code (compared without case) is held by someone, enabled or disabled" },
  { code: "WALLET_OWNS_ORGANIZATION", status: 409, meaning: "the new owner wallet already owns an organization with keys or codes" },
  { code: "LIMIT_REACHED", status: 409, meaning: "the organization holds the most active keys or codes allowed" },
  { code: "IDEMPOTENCY_IN_PROGRESS", status: 409, meaning: "a request with this Idempotency-Key is still running; retry shortly" },
  { code: "IDEMPOTENCY_KEY_REUSED", status: 422, meaning: "the Idempotency-Key was used with another method, path or body" }
]
