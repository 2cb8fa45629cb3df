import * as HttpApiMiddleware from "@effect/platform/HttpApiMiddleware"
import * as HttpApiSecurity from "@effect/platform/HttpApiSecurity"
import { Context, Schema } from "effect"
import type { Cluster } from "../../config.ts"
import { ForbiddenResponse, RateLimitedResponse, UnauthorizedResponse } from "../errors.ts"

/** The partner whose key authenticated the request. */
export interface Partner {
  readonly keyId: string
  readonly name: string
  /** The owner wallet (base58) the key was issued for, if any. */
  readonly ownerWallet: string | null
  readonly environment: Cluster
}

/** Provided to every handler behind `PartnerKey`: `const partner = yield* AuthenticatedPartner`. */
export class AuthenticatedPartner extends Context.Tag("vault-gateway/AuthenticatedPartner")<AuthenticatedPartner, Partner>() {}

/**
 * The partner API key requirement (spec §5, §8). The key comes as `x-api-key: <key>` or
 * `Authorization: Bearer <key>`. A missing or unknown key is a 401 `UNAUTHORIZED`, a key of another
 * environment a 403 `WRONG_ENVIRONMENT`, a key over its quota a 429 `RATE_LIMITED` (+ `Retry-After`).
 * Every response of a keyed route carries `X-RateLimit-Limit`, `X-RateLimit-Remaining` and
 * `X-RateLimit-Reset`.
 *
 * Attach it to a whole group (or one endpoint) of the contract:
 *
 * ```ts
 * export const VaultsApi = HttpApiGroup.make("vaults")
 *   .add(HttpApiEndpoint.get("list", "/v2/vaults").addSuccess(VaultList))
 *   .middleware(PartnerKey)
 * ```
 *
 * and read the caller in a handler with `yield* AuthenticatedPartner`. The implementation
 * (`PartnerKeyLive` in `layers/memory/`) is provided where `serve` composes the routes; a route with
 * this middleware and no implementation fails to compile.
 */
export class PartnerKey extends HttpApiMiddleware.Tag<PartnerKey>()("PartnerKey", {
  failure: Schema.Union(UnauthorizedResponse, ForbiddenResponse, RateLimitedResponse),
  provides: AuthenticatedPartner,
  security: {
    apiKey: HttpApiSecurity.apiKey({ in: "header", key: "x-api-key" }),
    bearer: HttpApiSecurity.bearer
  }
}) {}
