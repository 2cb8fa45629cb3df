import { HttpApi, OpenApi } from "@effect/platform"
import { VERSION } from "../version.ts"
import { BadRequestResponse, HeadersTooLargeResponse, InternalErrorResponse, UriTooLongResponse } from "./errors.ts"
import { SystemApi } from "./system/SystemApi.ts"

/** The transport's own decoder is used, never HttpApi's: drop the `HttpApiDecodeError` HttpApi adds by default. */
const withoutHttpApiDecodeError = (spec: Record<string, any>): Record<string, any> => {
  const json = JSON.stringify(spec, (key, value) => {
    if (key === "HttpApiDecodeError" || key === "Issue" || key === "PropertyKey") return undefined
    if (value !== null && typeof value === "object" && Array.isArray(value.anyOf)) {
      const anyOf = value.anyOf.filter((member: any) => member?.$ref !== "#/components/schemas/HttpApiDecodeError")
      return anyOf.length === 1 ? anyOf[0] : { ...value, anyOf }
    }
    return value
  })
  return JSON.parse(json)
}

/**
 * The vault-gateway HTTP API contract: every route, its parameters, bodies and errors. The uWS
 * transport serves it, `/openapi.json` and `/docs` describe it, and tests call it through a typed
 * `HttpApiClient`. Errors every route can answer are declared here once.
 */
export const Api = HttpApi.make("vault-gateway")
  .add(SystemApi)
  .addError(BadRequestResponse)
  .addError(UriTooLongResponse)
  .addError(HeadersTooLargeResponse)
  .addError(InternalErrorResponse)
  .annotateContext(
    OpenApi.annotations({
      title: "vault-gateway",
      version: VERSION,
      description: "Read API over Solana ntbundle strategy vaults",
      transform: withoutHttpApiDecodeError
    })
  )

export type Api = typeof Api
