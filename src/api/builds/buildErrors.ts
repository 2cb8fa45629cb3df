import { BlockhashUnavailable, MalformedRequest, SimulationFailed, UnknownVault } from "../../domain/builds/errors.ts"
import * as HttpApiSchema from "@effect/platform/HttpApiSchema"
import { Schema } from "effect"
import { ErrorEnvelopeId, errorResponse, httpStatusOfClass } from "../errorResponse.ts"

/** Wire forms of the build core's errors (the core stays free of HTTP). */
export const MalformedRequestResponse = errorResponse(MalformedRequest, {
  description: "The request is malformed (the code names the field rule it breaks)"
})

export const UnknownVaultResponse = errorResponse(UnknownVault, {
  description: "No vault of the program at this address"
})

export const BlockhashUnavailableResponse = errorResponse(BlockhashUnavailable, {
  description: "No fresh blockhash is cached yet; retry after Retry-After"
})

/**
 * 422 with the envelope plus `code` (= `error`): the real service's builder clients read
 * `{code: "SIMULATION_FAILED", logs}` (facts §10.2), envelope clients read `error`.
 */
export const SimulationFailedResponse = Schema.transform(
  Schema.Struct({
    success: Schema.Literal(false),
    error: SimulationFailed.fields.code,
    code: SimulationFailed.fields.code,
    message: Schema.String,
    simulationError: Schema.String,
    logs: Schema.Array(Schema.String)
  }),
  Schema.typeSchema(SimulationFailed),
  {
    strict: true,
    decode: ({ code, logs, message, simulationError }) => new SimulationFailed({ code, logs, message, simulationError }),
    encode: ({ code, logs, message, simulationError }) => ({ success: false as const, error: code, code, message, simulationError, logs })
  }
).annotations({
  ...HttpApiSchema.annotations({ status: httpStatusOfClass(SimulationFailed) }),
  description: "The node's simulation of the built transaction failed (error and program logs attached); nothing to sign",
  [ErrorEnvelopeId]: true
})
