import * as HttpApiEndpoint from "@effect/platform/HttpApiEndpoint"
import * as HttpApiGroup from "@effect/platform/HttpApiGroup"
import * as OpenApi from "@effect/platform/OpenApi"
import { Schema } from "effect"
import { NotFoundResponse, ProjectionUnavailableResponse } from "../errors.ts"
import { LegacyDeprecation } from "./LegacyDeprecation.ts"
import { LegacyDailySnapshot, LegacyVaultMetrics } from "./legacyHistory.ts"
import { VaultConfig } from "./vaultConfig.ts"
import { PartnerKey } from "../security/PartnerKey.ts"

/** A legacy numeric vault id (the registry's `vaultId`). */
export const LegacyVaultId = Schema.NumberFromString.pipe(Schema.int(), Schema.between(0, 999_999_999_999)).annotations({
  description: "legacy numeric vault id",
  jsonSchema: { type: "integer", minimum: 0, maximum: 999_999_999_999, description: "legacy numeric vault id (the registry's vaultId)" }
})

/**
 * The legacy v1 reads (spec §4.6, §9): bare objects, numeric ids, JSON-number amounts, each answer
 * marked `Deprecation` with a `Link` to its v2 successor. Only vaults of the ntbundle program exist here.
 */
export const LegacyApi = HttpApiGroup.make("legacy")
  .add(
    HttpApiEndpoint.get("vaults", "/api/v1/vaults")
      .addSuccess(Schema.Array(VaultConfig))
      .annotate(OpenApi.Summary, "Deprecated: use GET /v2/vaults. Registry vaults present on the program")
  )
  .add(
    HttpApiEndpoint.get("config", "/api/v1/vault/:vaultId/config")
      .setPath(Schema.Struct({ vaultId: LegacyVaultId }))
      .addSuccess(VaultConfig)
      .addError(NotFoundResponse)
      .annotate(OpenApi.Summary, "Deprecated: use GET /v2/vault/{vaultAddress}. 404 for ids with no ntbundle vault")
  )
  .add(
    HttpApiEndpoint.get("metrics", "/api/v1/vault/:vaultId/metrics")
      .setPath(Schema.Struct({ vaultId: LegacyVaultId }))
      .addSuccess(LegacyVaultMetrics)
      .addError(NotFoundResponse)
      .annotate(OpenApi.Summary, "Deprecated: use GET /v2/vault/{vaultAddress}/metrics")
  )
  .add(
    HttpApiEndpoint.get("snapshots", "/api/v1/vault/:vaultId/snapshots")
      .setPath(Schema.Struct({ vaultId: LegacyVaultId }))
      .addSuccess(Schema.Array(LegacyDailySnapshot))
      .addError(NotFoundResponse)
      .annotate(OpenApi.Summary, "Deprecated: use GET /v2/vault/{vaultAddress}/snapshots. Every completed day, oldest first")
  )
  .addError(ProjectionUnavailableResponse)
  .middleware(LegacyDeprecation)
  .middleware(PartnerKey)
  .annotate(OpenApi.Deprecated, true)
  .annotate(OpenApi.Title, "Legacy v1")
