import { Schema } from "effect"
import { codeLiteral } from "../../errors/codeLiteral.ts"
import type { HttpErrorCode } from "../../errors/codes.ts"

/**
 * Expected failures of transaction builds and previews; their codes and HTTP statuses are declared in
 * the error-code registry (src/errors/codes.ts). Policy refusals are not errors: they are answers
 * (`validation.accepted: false`), see rejections.ts.
 */

/** Why a builder or preview request is malformed (HTTP 400). */
export const MALFORMED_REQUEST_CODES = [
  "INVALID_BODY",
  "UNKNOWN_FIELD",
  "MISSING_FIELD",
  "INVALID_FIELD",
  "CONFLICTING_FIELDS",
  "INVALID_AMOUNT_RAW",
  "INVALID_SHARES_RAW",
  "INVALID_USER_ADDRESS",
  "USER_ADDRESS_OFF_CURVE",
  "INVALID_REFERRER_ADDRESS",
  "INVALID_CODE",
  "INVALID_PRIORITY_FEE"
] as const satisfies ReadonlyArray<HttpErrorCode>

export type MalformedRequestCode = (typeof MALFORMED_REQUEST_CODES)[number]

export class MalformedRequest extends Schema.TaggedError<MalformedRequest>()("MalformedRequest", {
  code: codeLiteral(...MALFORMED_REQUEST_CODES),
  message: Schema.String
}) {}

export const malformed = (code: MalformedRequestCode, message: string): MalformedRequest =>
  new MalformedRequest({ code, message })

/** The vault address names no vault of the program (HTTP 404). */
export class UnknownVault extends Schema.TaggedError<UnknownVault>()("UnknownVault", {
  code: codeLiteral("VAULT_NOT_FOUND"),
  message: Schema.String,
  vaultAddress: Schema.String
}) {
  static readonly at = (vaultAddress: string) =>
    new UnknownVault({ code: "VAULT_NOT_FOUND", vaultAddress, message: `no vault at ${vaultAddress}` })
}

/** No recent enough blockhash is cached: builds cannot be given a lifetime (HTTP 503). */
export class BlockhashUnavailable extends Schema.TaggedError<BlockhashUnavailable>()("BlockhashUnavailable", {
  code: codeLiteral("BLOCKHASH_UNAVAILABLE"),
  message: Schema.String,
  retryAfterSeconds: Schema.Int
}) {
  static readonly because = (reason: string, retryAfterSeconds = 2) =>
    new BlockhashUnavailable({ code: "BLOCKHASH_UNAVAILABLE", retryAfterSeconds, message: `no fresh blockhash: ${reason}` })
}

/**
 * The node's simulation of an accepted build failed: the chain would reject the transaction as built
 * (state moved since the projection saw it, or the user cannot pay the fee). HTTP 422 with the
 * program logs; the caller may rebuild later.
 */
export class SimulationFailed extends Schema.TaggedError<SimulationFailed>()("SimulationFailed", {
  code: codeLiteral("SIMULATION_FAILED"),
  message: Schema.String,
  /** The transaction error as the node reported it (JSON text). */
  simulationError: Schema.String,
  /** The program logs of the simulation, in order. */
  logs: Schema.Array(Schema.String)
}) {
  static readonly of = (simulationError: string, logs: ReadonlyArray<string>) =>
    new SimulationFailed({
      code: "SIMULATION_FAILED",
      simulationError,
      logs,
      message: `the transaction failed in simulation (${simulationError}); see logs`
    })
}
