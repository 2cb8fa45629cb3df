import * as HttpApiEndpoint from "@effect/platform/HttpApiEndpoint"
import * as HttpApiGroup from "@effect/platform/HttpApiGroup"
import * as OpenApi from "@effect/platform/OpenApi"
import { Schema } from "effect"
import { CacheControl, PublicCors } from "../annotations.ts"
import { NotFoundResponse, ProjectionUnavailableResponse } from "../errors.ts"
import { envelope, pricedEnvelope } from "../schemas.ts"

export const CODE_CACHE_CONTROL = "public, max-age=60"

export const ResolvedCode = envelope(
  Schema.Struct({
    code: Schema.String,
    /** The builder wallet (base58) the code attributes deposits to. */
    referrer: Schema.String
  })
).annotations({ identifier: "ResolvedCode" })

export const YieldVault = Schema.Struct({
  bundleKey: Schema.String,
  name: Schema.String,
  asset: Schema.Struct({ mint: Schema.String, symbol: Schema.String }),
  /** Null without a fresh USD price of the asset. */
  tvlUsd: Schema.NullOr(Schema.Number),
  /** Decimal fractions net of fees; null while the history is too short (or not kept yet). */
  apy7dAfterFees: Schema.NullOr(Schema.Number),
  apy30dAfterFees: Schema.NullOr(Schema.Number),
  apyInceptionAfterFees: Schema.NullOr(Schema.Number)
}).annotations({ identifier: "YieldVault" })

export const Yields = pricedEnvelope(Schema.Struct({ vaults: Schema.Array(YieldVault) })).annotations({ identifier: "Yields" })

/** Public reads browsers and aggregators call without a key (CORS). */
export const PublicApi = HttpApiGroup.make("public")
  .add(
    HttpApiEndpoint.get("code", "/public/codes/:code")
      .setPath(Schema.Struct({ code: Schema.String }))
      .addSuccess(ResolvedCode)
      .addError(NotFoundResponse)
      .annotate(CacheControl, CODE_CACHE_CONTROL)
      .annotate(OpenApi.Summary, "Resolve a builder code to its referrer wallet (404 when unknown or disabled)")
  )
  .add(
    HttpApiEndpoint.get("yields", "/public/yields")
      .addSuccess(Yields)
      .addError(ProjectionUnavailableResponse)
      .annotate(OpenApi.Summary, "Public vaults with TVL in USD and after-fee APYs, for yield aggregators")
  )
  .annotate(PublicCors, true)
  .annotate(OpenApi.Title, "Public")
