import * as HttpApiClient from "@effect/platform/HttpApiClient"
import * as HttpClient from "@effect/platform/HttpClient"
import * as HttpClientRequest from "@effect/platform/HttpClientRequest"
import type { Effect } from "effect"
import { Api } from "../api/Api.ts"

export { Api }

export interface ClientOptions {
  /** The partner key, sent as `x-api-key` on every request (public routes ignore it). */
  readonly apiKey?: string
}

/**
 * The typed Effect client of the gateway, made by `HttpApiClient` from the same contract the server
 * serves: one method per route, grouped as in the API (`client.vaults.getVault(...)`), decoded
 * successes, and the contract's errors as typed failures. Needs an `HttpClient` (e.g.
 * `FetchHttpClient.layer`).
 */
export const makeClient = (baseUrl: string, options: ClientOptions = {}) => {
  const { apiKey } = options
  return HttpApiClient.make(Api, {
    baseUrl,
    ...(apiKey === undefined ? {} : { transformClient: HttpClient.mapRequest(HttpClientRequest.setHeader("x-api-key", apiKey)) })
  })
}

export type GatewayClient = Effect.Effect.Success<ReturnType<typeof makeClient>>
