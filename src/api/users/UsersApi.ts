import { HttpApiEndpoint, HttpApiGroup, OpenApi } from "@effect/platform"
import { Schema } from "effect"
import { NotFoundResponse, ProjectionUnavailableResponse } from "../errors.ts"
import { Address, chainEnvelope, pricedEnvelope } from "../schemas.ts"
import { VaultAddressParam } from "../vaults/vaultPath.ts"
import { Balance } from "./balance.ts"
import { Pending } from "./pending.ts"
import { Portfolio } from "./portfolio.ts"
import { PartnerKey } from "../security/PartnerKey.ts"

const VaultUserPath = Schema.Struct({ vaultAddress: VaultAddressParam, wallet: Address })

export const BalanceBody = pricedEnvelope(Balance).annotations({ identifier: "BalanceResponse" })
export const PendingBody = chainEnvelope(Pending).annotations({ identifier: "PendingResponse" })
export const PortfolioBody = pricedEnvelope(Portfolio).annotations({ identifier: "PortfolioResponse" })

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
  .addError(ProjectionUnavailableResponse)
  .middleware(PartnerKey)
  .annotate(OpenApi.Title, "Users")
