import * as HttpApiEndpoint from "@effect/platform/HttpApiEndpoint"
import * as HttpApiGroup from "@effect/platform/HttpApiGroup"
import * as OpenApi from "@effect/platform/OpenApi"
import { Schema } from "effect"
import { NotFoundResponse, ProjectionUnavailableResponse } from "../errors.ts"
import { Address, chainEnvelope, QueryCursor, QueryDate, queryLimit } from "../schemas.ts"
import { PartnerKey } from "../security/PartnerKey.ts"
import { VaultAddressParam } from "../vaults/vaultPath.ts"
import { AssetInfo } from "../vaults/VaultRecord.ts"
import { MetricsHistoryRow } from "./metricsHistoryRow.ts"
import { SharePrice, SharePricePoint } from "./sharePriceRow.ts"

const VaultPath = Schema.Struct({ vaultAddress: VaultAddressParam })

export const Resolution = Schema.Literal("day", "event").annotations({
  jsonSchema: {
    type: "string",
    enum: ["day", "event"],
    default: "day",
    description: "day: each completed UTC day's closing price; event: each processing or fee event that moved the price"
  }
})

export const SharePriceParams = Schema.Struct({
  resolution: Schema.optional(Resolution),
  startDate: Schema.optional(QueryDate),
  endDate: Schema.optional(QueryDate),
  limit: Schema.optional(queryLimit(30)),
  cursor: Schema.optional(QueryCursor)
})

export const SharePriceSeries = chainEnvelope(
  Schema.Struct({
    bundleKey: Address,
    asset: AssetInfo,
    /** The price per share now, from the projection at asOf; null until the vault's oracle account is seen. */
    current: Schema.NullOr(SharePrice),
    resolution: Resolution,
    /** The last completed UTC day (at the asOf block time): no daily point is later. */
    throughDate: Schema.String,
    points: Schema.Array(SharePricePoint),
    nextCursor: Schema.NullOr(Schema.String)
  })
).annotations({ identifier: "SharePriceSeries" })

export const MetricsHistoryParams = Schema.Struct({
  startDate: Schema.optional(QueryDate),
  endDate: Schema.optional(QueryDate),
  limit: Schema.optional(queryLimit(30)),
  cursor: Schema.optional(QueryCursor)
})

export const MetricsHistoryPage = chainEnvelope(
  Schema.Struct({
    bundleKey: Address,
    asset: AssetInfo,
    throughDate: Schema.String,
    history: Schema.Array(MetricsHistoryRow),
    nextCursor: Schema.NullOr(Schema.String)
  })
).annotations({ identifier: "MetricsHistoryPage" })

/** A vault's share-price series and its recorded metrics history (facts §10.7). */
export const VaultSeriesApi = HttpApiGroup.make("vaultSeries")
  .add(
    HttpApiEndpoint.get("sharePrice", "/v2/vault/:vaultAddress/share-price")
      .setPath(VaultPath)
      .setUrlParams(SharePriceParams)
      .addSuccess(SharePriceSeries)
      .addError(NotFoundResponse)
      .annotate(OpenApi.Summary, "Current share price, and its series by day or by event, paginated")
      .annotate(
        OpenApi.Description,
        "current: the price per share now (asOf). points, oldest first: resolution=day (default) gives each completed UTC day's " +
          "closing price from the daily rollup (the snapshots' closingSharePrice); resolution=event gives each deposit processing " +
          "(Allocated), withdrawal processing (Redeemed) or fee charge (ChargedFeesToUser) from the event log whose price differs " +
          "from the one before it, at the price the event reports (the one the program computed it at from the vault's accounts), " +
          "with its transaction signature (events of the day in progress included; the log orders one slot's events by signature). " +
          "Days closed before the gateway ran come from its backfill of the event log. startDate/endDate " +
          "inclusive (UTC days); limit 1-100 (default 30); pass nextCursor as cursor for the next page (a cursor is bound to the " +
          "vault, resolution and filters, else 400 INVALID_CURSOR). Prices are exact: raw integer strings and decimal strings."
      )
  )
  .add(
    HttpApiEndpoint.get("metricsHistory", "/v2/vault/:vaultAddress/metrics/history")
      .setPath(VaultPath)
      .setUrlParams(MetricsHistoryParams)
      .addSuccess(MetricsHistoryPage)
      .addError(NotFoundResponse)
      .annotate(OpenApi.Summary, "The /metrics figures of each completed UTC day, as computed at that day's close")
      .annotate(
        OpenApi.Description,
        "One row per vault and completed UTC day, oldest first, recorded when the gateway closed the day and never recomputed " +
          "(a later fee change leaves past rows as they were). Days closed before the gateway ran (the backfilled history) were " +
          "computed once from that day's data and say derivation: backfill. startDate/endDate inclusive; limit 1-100 (default 30); " +
          "pass nextCursor as cursor for the next page."
      )
  )
  .addError(ProjectionUnavailableResponse)
  .middleware(PartnerKey)
  .annotate(OpenApi.Title, "Vault series")
