import { BlockhashUnavailable, MalformedRequest, SimulationFailed, UnknownVault } from "../../domain/builds/errors.ts"
import { errorResponse } from "../errorResponse.ts"

/** Wire forms of the build core's errors (the core stays free of HTTP). */
export const MalformedRequestResponse = errorResponse(MalformedRequest, {
  status: 400,
  description: "The request is malformed (the code names the field rule it breaks)"
})

export const UnknownVaultResponse = errorResponse(UnknownVault, {
  status: 404,
  description: "No vault of the program at this address"
})

export const BlockhashUnavailableResponse = errorResponse(BlockhashUnavailable, {
  status: 503,
  description: "No fresh blockhash is cached yet; retry after Retry-After"
})

export const SimulationFailedResponse = errorResponse(SimulationFailed, {
  status: 422,
  description: "The node's simulation of the built transaction failed (error and program logs attached); nothing to sign"
})
