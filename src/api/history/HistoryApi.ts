import * as HttpApiEndpoint from "@effect/platform/HttpApiEndpoint"
import * as HttpApiGroup from "@effect/platform/HttpApiGroup"
import * as OpenApi from "@effect/platform/OpenApi"
import { Schema } from "effect"
import { Amount } from "../amounts.ts"
import { NotFoundResponse, ProjectionUnavailableResponse } from "../errors.ts"
import { Address, chainEnvelope, pricedEnvelope, QueryCursor, QueryDate, queryLimit } from "../schemas.ts"
import { PartnerKey } from "../security/PartnerKey.ts"
import { VaultAddressParam } from "../vaults/vaultPath.ts"
import { AssetInfo } from "../vaults/VaultRecord.ts"
import { Snapshot } from "./snapshotRow.ts"

const VaultPath = Schema.Struct({ vaultAddress: VaultAddressParam })

export const SnapshotParams = Schema.Struct({
  startDate: Schema.optional(QueryDate),
  endDate: Schema.optional(QueryDate),
  limit: Schema.optional(queryLimit(30)),
  cursor: Schema.optional(QueryCursor)
})

export const SnapshotPage = chainEnvelope(
  Schema.Struct({
    bundleKey: Address,
    /** The last completed UTC day (at the asOf block time): no row is later. */
    throughDate: Schema.String,
    snapshots: Schema.Array(Snapshot),
    nextCursor: Schema.NullOr(Schema.String)
  })
).annotations({ identifier: "SnapshotPage" })

const Rate = Schema.NullOr(Schema.Number)

/** The yield figures of `/metrics` (decimal fractions; null when the history is too short). */
export const yieldFigureFields = {
  apy7d: Rate,
  apy7dAfterFees: Rate,
  apy30d: Rate,
  apy30dAfterFees: Rate,
  apyInception: Rate,
  apyInceptionAfterFees: Rate,
  maxDrawdown: Rate,
  sharpeRatio30d: Rate
}

export const VaultMetrics = pricedEnvelope(
  Schema.Struct({
    bundleKey: Address,
    ...yieldFigureFields,
    /** Current TVL from the projection; value null until the vault's oracle account is seen. */
    tvl: Schema.Struct({ asset: AssetInfo, value: Schema.NullOr(Amount) }),
    /** Unix seconds: the asOf block time the figures were computed at. */
    computedAt: Schema.Int,
    throughDate: Schema.String,
    /** Completed days with a closing share price behind the figures. */
    historyDays: Schema.Int
  })
).annotations({ identifier: "VaultMetrics" })

/** Daily history and yield figures from the program's events (facts §10.7). */
export const HistoryApi = HttpApiGroup.make("history")
  .add(
    HttpApiEndpoint.get("snapshots", "/v2/vault/:vaultAddress/snapshots")
      .setPath(VaultPath)
      .setUrlParams(SnapshotParams)
      .addSuccess(SnapshotPage)
      .addError(NotFoundResponse)
      .annotate(OpenApi.Summary, "Daily vault snapshots (completed UTC days), paginated")
      .annotate(
        OpenApi.Description,
        "One row per completed UTC day, oldest first; startDate/endDate inclusive; limit 1-100 (default 30); " +
          "pass nextCursor as cursor for the next page (a cursor is bound to the vault and filters, else 400 INVALID_CURSOR)"
      )
  )
  .add(
    HttpApiEndpoint.get("metrics", "/v2/vault/:vaultAddress/metrics")
      .setPath(VaultPath)
      .addSuccess(VaultMetrics)
      .addError(NotFoundResponse)
      .annotate(OpenApi.Summary, "APY 7d/30d/inception gross and after fees, max drawdown, 30-day Sharpe, TVL")
  )
  .addError(ProjectionUnavailableResponse)
  .middleware(PartnerKey)
  .annotate(OpenApi.Title, "Vault history")
