import { HttpApiEndpoint, HttpApiGroup, OpenApi } from "@effect/platform"
import { Schema } from "effect"
import { ProjectionUnavailableResponse } from "../errors.ts"
import { Address, chainEnvelope } from "../schemas.ts"
import { PartnerKey } from "../security/PartnerKey.ts"
import { PartnerAgreements } from "./PartnerAgreement.ts"
import { OwnerWalletRequiredResponse } from "./referrerErrors.ts"
import { ReferrerSummary } from "./ReferrerSummary.ts"

export const ReferrerSummaryBody = chainEnvelope(ReferrerSummary).annotations({ identifier: "ReferrerSummaryResponse" })
export const PartnerAgreementsBody = chainEnvelope(PartnerAgreements).annotations({ identifier: "PartnerAgreementsResponse" })

/** Builder reporting from the projection (spec §2.4-§2.5, §4.3): any valid key may read any referrer address. */
export const ReferrersApi = HttpApiGroup.make("referrers")
  .add(
    HttpApiEndpoint.get("summary", "/v2/referrer/:address/summary")
      .setPath(Schema.Struct({ address: Address }))
      .addSuccess(ReferrerSummaryBody)
      .annotate(
        OpenApi.Summary,
        "Per vault where the builder is registered or has bound users: accrued fee shares, claimable value, pending claim, cohort, referred net deposits and tier standing"
      )
  )
  .add(
    HttpApiEndpoint.get("agreements", "/v2/partner/agreements")
      .addSuccess(PartnerAgreementsBody)
      .addError(OwnerWalletRequiredResponse)
      .annotate(
        OpenApi.Summary,
        "Current referral terms of the key's owner wallet in every vault (403 OWNER_WALLET_REQUIRED for a key without one)"
      )
  )
  .addError(ProjectionUnavailableResponse)
  .middleware(PartnerKey)
  .annotate(OpenApi.Title, "Builder reporting")
