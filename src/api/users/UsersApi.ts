import * as HttpApiEndpoint from "@effect/platform/HttpApiEndpoint"
import * as HttpApiGroup from "@effect/platform/HttpApiGroup"
import * as OpenApi from "@effect/platform/OpenApi"
import { Schema } from "effect"
import { NotFoundResponse, ProjectionUnavailableResponse } from "../errors.ts"
import { Address, chainEnvelope, pricedEnvelope, QueryBoolean, QueryCursor, QueryDate, queryLimit } from "../schemas.ts"
import { VaultAddressParam } from "../vaults/vaultPath.ts"
import { ActivityPage } from "./activity.ts"
import { Balance } from "./balance.ts"
import { EARNINGS_METHOD, VaultEarnings, WalletEarnings } from "./earnings.ts"
import { PositionHistoryPage } from "./positionHistory.ts"
import { Pending } from "./pending.ts"
import { Portfolio } from "./portfolio.ts"
import { PartnerKey } from "../security/PartnerKey.ts"

const VaultUserPath = Schema.Struct({ vaultAddress: VaultAddressParam, wallet: Address })

export const BalanceBody = pricedEnvelope(Balance).annotations({ identifier: "BalanceResponse" })
export const PendingBody = chainEnvelope(Pending).annotations({ identifier: "PendingResponse" })
export const PortfolioBody = pricedEnvelope(Portfolio).annotations({ identifier: "PortfolioResponse" })

const WalletPath = Schema.Struct({ wallet: Address })
const DateRange = { startDate: Schema.optional(QueryDate), endDate: Schema.optional(QueryDate) }
const ActivityParams = { ...DateRange, limit: Schema.optional(queryLimit(50)), cursor: Schema.optional(QueryCursor) }
export const ActivityBody = chainEnvelope(ActivityPage).annotations({ identifier: "ActivityResponse" })
export const PositionHistoryBody = chainEnvelope(PositionHistoryPage).annotations({ identifier: "PositionHistoryResponse" })
export const VaultEarningsBody = chainEnvelope(VaultEarnings).annotations({ identifier: "VaultEarningsResponse" })
export const WalletEarningsBody = chainEnvelope(WalletEarnings).annotations({ identifier: "WalletEarningsResponse" })

const ACTIVITY_ORDER =
  "Newest first: by slot, then transaction signature, then the event's index in the transaction, descending. The event " +
  "log keeps no in-block position, so two transactions of one slot are ordered by signature, not by execution. " +
  "startDate/endDate are inclusive UTC days of the block time; limit 1-100 (default 50); pass nextCursor as cursor " +
  "for the next page (a cursor is bound to the wallet and filters, else 400 INVALID_CURSOR). Types: depositRequested " +
  "(DepositRequested: gross, fee, net), depositProcessed (Allocated: net credited, shares minted), depositRefunded " +
  "(RefundedDeposit: net), withdrawalRequested (WithdrawalRequested: shares locked, estimatedValue, estimated net), " +
  "withdrawalProcessed (Redeemed: gross, fee, net, shares), feesCharged (ChargedFeesToUser: fee value, fee shares), " +
  "switchRequested / switchCompleted / switchFellBackToWallet (vault = source, targetVault = destination; amounts in " +
  "the source's asset). 503 while the history backfill still loads older events."

/** A wallet's positions, from the projection (facts §10.8). */
export const UsersApi = HttpApiGroup.make("users")
  .add(
    HttpApiEndpoint.get("balance", "/v2/vault/:vaultAddress/user/:wallet/balance")
      .setPath(VaultUserPath)
      .addSuccess(BalanceBody)
      .addError(NotFoundResponse)
      .annotate(OpenApi.Summary, "Shares, value, net deposits and unpaid-fee estimate (404 NO_POSITION without a position)")
  )
  .add(
    HttpApiEndpoint.get("pending", "/v2/vault/:vaultAddress/user/:wallet/pending")
      .setPath(VaultUserPath)
      .addSuccess(PendingBody)
      .addError(NotFoundResponse)
      .annotate(OpenApi.Summary, "Pending deposit and withdrawal with stage, timestamps and estimated processing time")
  )
  .add(
    HttpApiEndpoint.get("portfolio", "/v2/user/:wallet/portfolio")
      .setPath(Schema.Struct({ wallet: Address }))
      .addSuccess(PortfolioBody)
      .annotate(OpenApi.Summary, "Every position of the wallet with per-asset totals; USD total null when any asset is unpriced")
  )
  .add(
    HttpApiEndpoint.get("activity", "/v2/user/:wallet/activity")
      .setPath(WalletPath)
      .setUrlParams(Schema.Struct({ vault: Schema.optional(Address), ...ActivityParams }))
      .addSuccess(ActivityBody)
      .addError(NotFoundResponse)
      .annotate(OpenApi.Summary, "The wallet's deposits, withdrawals, fees and switches across vaults (or one: vault=), paginated")
      .annotate(OpenApi.Description, ACTIVITY_ORDER)
  )
  .add(
    HttpApiEndpoint.get("vaultActivity", "/v2/vault/:vaultAddress/user/:wallet/activity")
      .setPath(VaultUserPath)
      .setUrlParams(Schema.Struct(ActivityParams))
      .addSuccess(ActivityBody)
      .addError(NotFoundResponse)
      .annotate(OpenApi.Summary, "The wallet's activity in one vault (switches out of or into it included), paginated")
      .annotate(OpenApi.Description, ACTIVITY_ORDER)
  )
  .add(
    HttpApiEndpoint.get("positionHistory", "/v2/vault/:vaultAddress/user/:wallet/history")
      .setPath(VaultUserPath)
      .setUrlParams(Schema.Struct({ ...DateRange, limit: Schema.optional(queryLimit(30)), cursor: Schema.optional(QueryCursor), includePartial: Schema.optional(QueryBoolean) }))
      .addSuccess(PositionHistoryBody)
      .addError(NotFoundResponse)
      .annotate(OpenApi.Summary, "One row per UTC day of the position: closing shares and value, flows, fees and earnings of the day")
      .annotate(
        OpenApi.Description,
        "Newest first, from the position's first event through the last completed UTC day (includePartial=true adds the " +
          "day in progress, valued at the current share price), or through the day of its last event once the position " +
          "is closed. Date-grouped: startDate/endDate inclusive; limit 1-100 days (default 30); pass nextCursor as cursor. " +
          "Shares come from the position's events, the closing share price from the vault's daily snapshots; a day's " +
          "earnings are its closing value minus the previous day's minus its net deposits (see the earnings route for the " +
          "method). 404 NO_POSITION when the wallet has no events in the vault."
      )
  )
  .add(
    HttpApiEndpoint.get("earnings", "/v2/vault/:vaultAddress/user/:wallet/earnings")
      .setPath(VaultUserPath)
      .setUrlParams(Schema.Struct(DateRange))
      .addSuccess(VaultEarningsBody)
      .addError(NotFoundResponse)
      .annotate(OpenApi.Summary, "Interest earned by the position over a window of UTC days")
      .annotate(OpenApi.Description, EARNINGS_METHOD)
  )
  .add(
    HttpApiEndpoint.get("walletEarnings", "/v2/user/:wallet/earnings")
      .setPath(WalletPath)
      .setUrlParams(Schema.Struct(DateRange))
      .addSuccess(WalletEarningsBody)
      .annotate(OpenApi.Summary, "Interest earned by each of the wallet's positions over a window, with per-asset totals")
      .annotate(OpenApi.Description, `Every vault the wallet has events in, each over its own days within the window. ${EARNINGS_METHOD}`)
  )
  .addError(ProjectionUnavailableResponse)
  .middleware(PartnerKey)
  .annotate(OpenApi.Title, "Users")
