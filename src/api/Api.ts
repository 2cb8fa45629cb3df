import * as HttpApi from "@effect/platform/HttpApi"
import * as OpenApi from "@effect/platform/OpenApi"
import { VERSION } from "../version.ts"
import { BadRequestResponse, HeadersTooLargeResponse, InternalErrorResponse, UriTooLongResponse } from "./errors.ts"
import { withoutHttpApiDecodeError, withTransportHeaderAnswer } from "./openApiTransform.ts"
import { BuildsApi } from "./builds/BuildsApi.ts"
import { LegacyBuildsApi } from "./builds/LegacyBuildsApi.ts"
import { PublicApi } from "./public/PublicApi.ts"
import { ReferrersApi } from "./referrers/ReferrersApi.ts"
import { ReferrerHistoryApi } from "./referrerHistory/ReferrerHistoryApi.ts"
import { SystemApi } from "./system/SystemApi.ts"
import { HistoryApi } from "./history/HistoryApi.ts"
import { VaultSeriesApi } from "./history/VaultSeriesApi.ts"
import { LegacyApi } from "./legacy/LegacyApi.ts"
import { PlatformApi } from "./platform/PlatformApi.ts"
import { UsersApi } from "./users/UsersApi.ts"
import { VaultsApi } from "./vaults/VaultsApi.ts"
import { AuthApi } from "./controlPlane/AuthApi.ts"
import { OrgApi } from "./controlPlane/OrgApi.ts"
import { ActionsApi } from "./actions/ActionsApi.ts"

/**
 * The vault-gateway HTTP API contract: every route, its parameters, bodies and errors. The uWS
 * transport serves it, `/openapi.json` and `/docs` describe it, and tests call it through a typed
 * `HttpApiClient`. Errors every route can answer are declared here once.
 */
export const Api = HttpApi.make("vault-gateway")
  .add(SystemApi)
  .add(BuildsApi)
  .add(LegacyBuildsApi)
  .add(PublicApi)
  .add(VaultsApi)
  .add(UsersApi)
  .add(PlatformApi)
  .add(HistoryApi)
  .add(VaultSeriesApi)
  .add(LegacyApi)
  .add(ReferrersApi)
  .add(ReferrerHistoryApi)
  .add(AuthApi)
  .add(OrgApi)
  .add(ActionsApi)
  .addError(BadRequestResponse)
  .addError(UriTooLongResponse)
  .addError(HeadersTooLargeResponse)
  .addError(InternalErrorResponse)
  .annotateContext(
    OpenApi.annotations({
      title: "vault-gateway",
      version: VERSION,
      // relative: the document is right for every deployment (and a local run) that serves it
      servers: [{ url: "/", description: "the gateway that serves this document (its public origin)" }],
      description: "Read API over Solana ntbundle strategy vaults.\n\n" +
        "Live updates: `GET /v2/stream` upgrades to a WebSocket (partner key in `x-api-key` or " +
        "`Authorization: Bearer`; refused with 401/403/429 at upgrade). Protocol v1: send " +
        "`{\"op\":\"subscribe\",\"id\":1,\"topics\":[...]}` with topics `vault:<address>`, " +
        "`referrer:<address>`, `user:<vault>:<wallet>`, `status` and `slots`; receive `subscribed` (a snapshot " +
        "in the shape of the matching REST read, with its `asOf`), then `update {topic, seq, asOf, data}` with " +
        "`seq` one higher each time, `status`, `resync` (followed by fresh snapshots), `error {code, message}` " +
        "and `pong`; close code 4008 when the client reads too slowly. The full protocol is the AsyncAPI 3.0 document " +
        "`GET /asyncapi.json` (and the README's \"WebSocket stream\" section).\n\n" +
        "Builder control plane: `/v2/auth/*` (Sign-In With Solana, wallet sessions in an HttpOnly cookie) and " +
        "`/v2/org/*` (organization, API keys, builder codes, audit log). Those routes take only the session " +
        "cookie, never a partner key; state-changing ones need `Origin` equal to the gateway's public origin.",
      transform: (spec) => withTransportHeaderAnswer(withoutHttpApiDecodeError(spec))
    })
  )

export type Api = typeof Api
