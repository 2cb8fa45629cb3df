import * as HttpApiEndpoint from "@effect/platform/HttpApiEndpoint"
import * as HttpApiGroup from "@effect/platform/HttpApiGroup"
import * as OpenApi from "@effect/platform/OpenApi"
import { Schema } from "effect"
import { NotFoundResponse, ProjectionUnavailableResponse } from "../errors.ts"
import { Address, chainEnvelope, QueryBoolean, QueryCursor, QueryDate, queryLimit } from "../schemas.ts"
import { PartnerKey } from "../security/PartnerKey.ts"
import { ReferrerHistoryRow } from "./historyRow.ts"

export const ReferrerHistoryParams = Schema.Struct({
  vault: Schema.optional(Address),
  startDate: Schema.optional(QueryDate),
  endDate: Schema.optional(QueryDate),
  includePartial: Schema.optional(QueryBoolean),
  limit: Schema.optional(queryLimit(50)),
  cursor: Schema.optional(QueryCursor)
})

export const ReferrerHistoryPage = chainEnvelope(
  Schema.Struct({
    referrer: Address,
    /** The newest completed UTC day (at the asOf block time). */
    throughDate: Schema.String,
    history: Schema.Array(ReferrerHistoryRow),
    nextCursor: Schema.NullOr(Schema.String)
  })
).annotations({ identifier: "ReferrerHistoryResponse" })

/** The builder's daily series (spec §2.6, §4.3), from the rows the history rollup closed. */
export const ReferrerHistoryApi = HttpApiGroup.make("referrerHistory")
  .add(
    HttpApiEndpoint.get("history", "/v2/referrer/:address/history")
      .setPath(Schema.Struct({ address: Address }))
      .setUrlParams(ReferrerHistoryParams)
      .addSuccess(ReferrerHistoryPage)
      .addError(NotFoundResponse)
      .annotate(OpenApi.Summary, "The builder's daily earnings, cohort and flows per vault (completed UTC days)")
      .annotate(
        OpenApi.Description,
        "One row per completed UTC day and vault where the builder has bound users, a registration or earnings, " +
          "oldest first, then by vault address. startDate/endDate (YYYY-MM-DD, UTC, inclusive; a reversed range is 400 INVALID_QUERY); " +
          "vault filters to one vault (404 VAULT_NOT_FOUND if unknown); includePartial=true adds the day in progress " +
          "(partial: true, partialThrough) after the last completed day. limit 1-100 (default 50) rows, but a date is never split: " +
          "a page ends before a date that does not fit, or holds one date whole. Pass nextCursor as cursor (null on the last page; " +
          "a cursor is bound to the referrer and filters, else 400 INVALID_CURSOR). 503 with Retry-After while the projection is " +
          "not live or the requested days are not stored yet (history backfill running, or a day just ended)."
      )
  )
  .addError(ProjectionUnavailableResponse)
  .middleware(PartnerKey)
  .annotate(OpenApi.Title, "Builder history")
