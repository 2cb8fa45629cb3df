import { HttpApiEndpoint, HttpApiGroup, OpenApi } from "@effect/platform"
import { ProjectionUnavailableResponse } from "../errors.ts"
import { chainEnvelope } from "../schemas.ts"
import { PlatformStats } from "./platformStats.ts"
import { PartnerKey } from "../security/PartnerKey.ts"

export const PlatformStatsBody = chainEnvelope(PlatformStats).annotations({ identifier: "PlatformStatsResponse" })

/** Cross-vault figures from the projection. */
export const PlatformApi = HttpApiGroup.make("platform")
  .add(
    HttpApiEndpoint.get("stats", "/v2/platform/stats")
      .addSuccess(PlatformStatsBody)
      .annotate(OpenApi.Summary, "TVL and net deposits per asset, distinct active users")
  )
  .addError(ProjectionUnavailableResponse)
  .middleware(PartnerKey)
  .annotate(OpenApi.Title, "Platform")
