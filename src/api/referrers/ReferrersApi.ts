import * as HttpApiEndpoint from "@effect/platform/HttpApiEndpoint"
import * as HttpApiGroup from "@effect/platform/HttpApiGroup"
import * as OpenApi from "@effect/platform/OpenApi"
import { Schema } from "effect"
import { NotFoundResponse, ProjectionUnavailableResponse } from "../errors.ts"
import { Address, chainEnvelope, pricedEnvelope, QueryCursor, QueryDate, queryLimit } from "../schemas.ts"
import { PartnerKey } from "../security/PartnerKey.ts"
import { PartnerAgreements } from "./PartnerAgreement.ts"
import { OwnerWalletRequiredResponse } from "./referrerErrors.ts"
import { PayoutPage } from "./Payout.ts"
import { CohortUserPage } from "./CohortUser.ts"
import { FlowPage } from "./Flow.ts"
import { ReferrerSummary } from "./ReferrerSummary.ts"

export const ReferrerSummaryBody = pricedEnvelope(ReferrerSummary).annotations({ identifier: "ReferrerSummaryResponse" })
export const PayoutPageBody = pricedEnvelope(PayoutPage).annotations({ identifier: "ReferrerPayoutsResponse" })
export const CohortUserPageBody = pricedEnvelope(CohortUserPage).annotations({ identifier: "ReferrerUsersResponse" })
export const FlowPageBody = pricedEnvelope(FlowPage).annotations({ identifier: "ReferrerFlowsResponse" })
export const PartnerAgreementsBody = chainEnvelope(PartnerAgreements).annotations({ identifier: "PartnerAgreementsResponse" })

export const PayoutParams = Schema.Struct({
  limit: Schema.optional(queryLimit(50)),
  cursor: Schema.optional(QueryCursor)
})

export const CohortUserParams = Schema.Struct({
  vault: Schema.optional(Address),
  limit: Schema.optional(queryLimit(50)),
  cursor: Schema.optional(QueryCursor)
})

export const FlowParams = Schema.Struct({
  startDate: Schema.optional(QueryDate),
  endDate: Schema.optional(QueryDate),
  limit: Schema.optional(queryLimit(50)),
  cursor: Schema.optional(QueryCursor)
})

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
    HttpApiEndpoint.get("payouts", "/v2/referrer/:address/payouts")
      .setPath(Schema.Struct({ address: Address }))
      .setUrlParams(PayoutParams)
      .addSuccess(PayoutPageBody)
      .annotate(OpenApi.Summary, "The builder's settled claims with their transaction signatures, newest first")
      .annotate(
        OpenApi.Description,
        "Settled builder claims (ReferrerWithdrawalProcessed), newest first: slot, then signature, then event index, all descending. " +
          "limit 1-100 (default 50); pass nextCursor as cursor for the next page (null on the last page; a cursor is bound to the referrer, else 400 INVALID_CURSOR). " +
          "A requested claim that has not settled is the summary's pendingWithdrawal, not a payout."
      )
  )
  .add(
    HttpApiEndpoint.get("users", "/v2/referrer/:address/users")
      .setPath(Schema.Struct({ address: Address }))
      .setUrlParams(CohortUserParams)
      .addSuccess(CohortUserPageBody)
      .addError(NotFoundResponse)
      .annotate(OpenApi.Summary, "The builder's bound users (cohort) with their positions and binding")
      .annotate(
        OpenApi.Description,
        "The builder's bound positions (UserBundleAccount.referrer = address), sorted by position address ascending " +
          "(one order across vaults; served from a sorted index, so a page costs O(page)); each row carries its binding " +
          "(UserReferrerSet: first attribution time, slot and the rates recorded at binding, which are historical and do not " +
          "drive accrual), or binding \"backfilling\" while the program's history is still loading; " +
          "vault filters to one vault (404 VAULT_NOT_FOUND if unknown); limit 1-100 (default 50); pass nextCursor as cursor " +
          "for the next page (null on the last; a cursor is bound to the referrer and vault filter, else 400 INVALID_CURSOR)"
      )
  )
  .add(
    HttpApiEndpoint.get("flows", "/v2/referrer/:address/flows")
      .setPath(Schema.Struct({ address: Address }))
      .setUrlParams(FlowParams)
      .addSuccess(FlowPageBody)
      .annotate(OpenApi.Summary, "Deposits, withdrawals and refunds of the builder's cohort, newest first")
      .annotate(
        OpenApi.Description,
        "Deposits, withdrawals and refunds of the builder's cohort (the positions its UserReferrerSet events bound), " +
          "from the program's events, newest first: slot, then signature, then event index, all descending. " +
          "startDate/endDate (YYYY-MM-DD, UTC, inclusive; by block time) filter the window; a reversed range is 400 INVALID_QUERY. " +
          "limit 1-100 (default 50); pass nextCursor as cursor for the next page (null on the last page; a cursor is bound to the " +
          "referrer and window, else 400 INVALID_CURSOR). stage requested: the user's DepositRequested / WithdrawalRequested; " +
          "stage processed: the keeper's Allocated (deposit; amount = the gross deposit requested, the event's amount, not its " +
          "net_amount after the fee), Redeemed (withdrawal; amount = gross_amount) and RefundedDeposit (refund), attributed to the " +
          "position owner of the process_deposit / process_withdrawal instruction that emitted them. " +
          "503 PROJECTION_UNAVAILABLE (Retry-After) while the projection is not live or " +
          "the program's history is still being backfilled into the event log."
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
