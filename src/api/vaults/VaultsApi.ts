import * as HttpApiEndpoint from "@effect/platform/HttpApiEndpoint"
import * as HttpApiGroup from "@effect/platform/HttpApiGroup"
import * as OpenApi from "@effect/platform/OpenApi"
import { Schema } from "effect"
import { NotFoundResponse, ProjectionUnavailableResponse } from "../errors.ts"
import { pricedEnvelope } from "../schemas.ts"
import { VaultAddressParam } from "./vaultPath.ts"
import { VaultRecord } from "./VaultRecord.ts"
import { PartnerKey } from "../security/PartnerKey.ts"

export const VaultListBody = pricedEnvelope(Schema.Array(VaultRecord)).annotations({ identifier: "VaultList" })
export const VaultBody = pricedEnvelope(VaultRecord).annotations({ identifier: "Vault" })

/** Vault reads from the projection (spec §2.3, facts §10.7). */
export const VaultsApi = HttpApiGroup.make("vaults")
  .add(
    HttpApiEndpoint.get("list", "/v2/vaults")
      .addSuccess(VaultListBody)
      .annotate(OpenApi.Summary, "Every vault (Bundle account) of the configured program, catalog or not")
  )
  .add(
    HttpApiEndpoint.get("get", "/v2/vault/:vaultAddress")
      .setPath(Schema.Struct({ vaultAddress: VaultAddressParam }))
      .addSuccess(VaultBody)
      .addError(NotFoundResponse)
      .annotate(OpenApi.Summary, "One vault by its base58 address (404 for unknown vaults and v1 numeric ids)")
  )
  .addError(ProjectionUnavailableResponse)
  .middleware(PartnerKey)
  .annotate(OpenApi.Title, "Vaults")
