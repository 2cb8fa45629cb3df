import * as HttpApiEndpoint from "@effect/platform/HttpApiEndpoint"
import * as HttpApiGroup from "@effect/platform/HttpApiGroup"
import * as OpenApi from "@effect/platform/OpenApi"
import { ProjectionUnavailableResponse } from "../errors.ts"
import { pricedEnvelope } from "../schemas.ts"
import { PlatformStats } from "./platformStats.ts"
import { PartnerKey } from "../security/PartnerKey.ts"

export const PlatformStatsBody = pricedEnvelope(PlatformStats).annotations({ identifier: "PlatformStatsResponse" })

/** Cross-vault figures from the projection. */
export const PlatformApi = HttpApiGroup.make("platform")
  .add(
    HttpApiEndpoint.get("stats", "/v2/platform/stats")
      .addSuccess(PlatformStatsBody)
      .annotate(OpenApi.Summary, "TVL, capital raised and net deposits per asset, distinct active users")
      .annotate(
        OpenApi.Description,
        "Per deposit asset: TVL from the projection; cumulativeDeposits (deposits processed into shares, after fees) and " +
          "netDeposits (cumulativeDeposits minus withdrawals processed, gross) from the event log, so netDeposits never " +
          "exceeds cumulativeDeposits. Both are null while the history backfill is still loading older events."
      )
  )
  .addError(ProjectionUnavailableResponse)
  .middleware(PartnerKey)
  .annotate(OpenApi.Title, "Platform")
