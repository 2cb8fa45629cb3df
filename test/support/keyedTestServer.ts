import { HttpApi, HttpApiEndpoint, HttpApiGroup } from "@effect/platform"
import { Context, Effect, Layer, Schema } from "effect"
import { PartnerKeyLive, type PartnerKeyOptions } from "../../layers/memory/PartnerKeyLive.ts"
import { ApiRoutesLive } from "../../layers/uws/ApiRoutes.ts"
import { HttpListener } from "../../layers/uws/HttpServer.ts"
import { BadRequestResponse, HeadersTooLargeResponse, InternalErrorResponse, UriTooLongResponse } from "../../src/api/errors.ts"
import { implementGroup } from "../../src/api/handlers.ts"
import { AuthenticatedPartner, PartnerKey } from "../../src/api/security/PartnerKey.ts"
import { listenForTest } from "../../src/bench/support/httpTestServer.ts"

/** A contract with one keyed route that echoes the authenticated partner. */
export const KeyedApi = HttpApi.make("keyed")
  .add(
    HttpApiGroup.make("partner")
      .add(
        HttpApiEndpoint.get("whoami", "/v2/whoami").addSuccess(
          Schema.Struct({
            keyId: Schema.String,
            name: Schema.String,
            ownerWallet: Schema.NullOr(Schema.String),
            environment: Schema.String
          })
        )
      )
      .middleware(PartnerKey)
  )
  .addError(BadRequestResponse)
  .addError(UriTooLongResponse)
  .addError(HeadersTooLargeResponse)
  .addError(InternalErrorResponse)

const WhoAmILive = implementGroup(KeyedApi, "partner", Effect.succeed({ whoami: () => AuthenticatedPartner }))

/**
 * One gateway instance serving `KeyedApi` behind the real `PartnerKeyLive`, on a free port, for as
 * long as the scope lasts; takes `PartnerKeys` and `RateLimiter` from the environment. Returns its URL.
 */
export const startKeyedServer = (options: PartnerKeyOptions) =>
  Effect.map(
    Layer.build(listenForTest(ApiRoutesLive(KeyedApi).pipe(Layer.provide(Layer.merge(WhoAmILive, PartnerKeyLive(options)))))),
    (context) => Context.get(context, HttpListener).url
  )
