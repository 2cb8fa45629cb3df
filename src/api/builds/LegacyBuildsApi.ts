import * as HttpApiEndpoint from "@effect/platform/HttpApiEndpoint"
import * as HttpApiGroup from "@effect/platform/HttpApiGroup"
import * as HttpApiMiddleware from "@effect/platform/HttpApiMiddleware"
import * as OpenApi from "@effect/platform/OpenApi"
import { Schema } from "effect"
import { LegacyVaultId } from "../legacy/LegacyApi.ts"
import { bodyDocumentedAs, DepositRequest, WithdrawRequest } from "./buildSchemas.ts"
import { codeLiteral } from "../../errors/codeLiteral.ts"
import { MaxBodyBytes, PublicCors } from "../annotations.ts"
import { errorClassAnnotations, errorResponse } from "../errorResponse.ts"
import { NotFoundResponse, PayloadTooLargeResponse, ProjectionUnavailableResponse } from "../errors.ts"
import { BlockhashUnavailableResponse, MalformedRequestResponse, SimulationFailedResponse, UnknownVaultResponse } from "./buildErrors.ts"
import { BuildMeter } from "./BuildMeter.ts"

/** Marks the v1 instruction answers deprecated and links each to its v2 builder. */
export class LegacyBuildDeprecation extends HttpApiMiddleware.Tag<LegacyBuildDeprecation>()("LegacyBuildDeprecation", {
  failure: Schema.Never
}) {}

const BuildRefusedCode = codeLiteral("BUILD_REFUSED")

/** A v1 build the vault's policy refuses: v1 clients know only 4xx envelopes, so no 200 here. */
export class BuildRefused extends Schema.TaggedError<BuildRefused>()(
  "BuildRefused",
  {
    code: BuildRefusedCode,
    message: Schema.String,
    rejectionReasons: Schema.Array(Schema.Struct({ code: Schema.String, message: Schema.String }))
  },
  errorClassAnnotations(BuildRefusedCode, "The vault's policy refuses this request (reasons attached)")
) {}
export const BuildRefusedResponse = errorResponse(BuildRefused)

const LegacyInstruction = Schema.Struct({
  programId: Schema.String,
  accounts: Schema.Array(Schema.Struct({ pubkey: Schema.String, isSigner: Schema.Boolean, isWritable: Schema.Boolean })),
  dataBase64: Schema.String
})

export const LegacyInstructions = Schema.Struct({
  success: Schema.Literal(true),
  data: Schema.Struct({
    vaultId: Schema.Number,
    chain: Schema.Literal("solana"),
    depositToken: Schema.String,
    instructions: Schema.Array(LegacyInstruction)
  })
}).annotations({ identifier: "LegacyInstructions" })


const legacyBuilder = <const Name extends "depositInstructions" | "withdrawInstructions">(name: Name, path: `/${string}`, successor: string) =>
  HttpApiEndpoint.post(name, path)
    .setPath(Schema.Struct({ vaultId: LegacyVaultId }))
    .setPayload(bodyDocumentedAs(name === "depositInstructions" ? DepositRequest : WithdrawRequest))
    .addSuccess(LegacyInstructions)
    .addError(MalformedRequestResponse)
    .addError(NotFoundResponse)
    .addError(UnknownVaultResponse)
    .addError(BuildRefusedResponse)
    .addError(PayloadTooLargeResponse)
    .addError(ProjectionUnavailableResponse)
    .addError(BlockhashUnavailableResponse)
    .addError(SimulationFailedResponse)
    .annotate(OpenApi.Summary, `Deprecated: use ${successor}. Body {userAddress, amountRaw}; the ntbundle instructions (no compute budget)`)

/** The legacy v1 instruction builders: public and metered like the v2 builders. */
export const LegacyBuildsApi = HttpApiGroup.make("legacyBuilds")
  .add(legacyBuilder("depositInstructions", "/api/v1/vault/:vaultId/deposit-instructions", "POST /v2/vault/{vaultAddress}/tx/deposit"))
  .add(legacyBuilder("withdrawInstructions", "/api/v1/vault/:vaultId/withdraw-instructions", "POST /v2/vault/{vaultAddress}/tx/withdraw"))
  .middleware(LegacyBuildDeprecation)
  .middleware(BuildMeter)
  .annotate(MaxBodyBytes, 4096)
  .annotate(PublicCors, true)
  .annotate(OpenApi.Deprecated, true)
  .annotate(OpenApi.Title, "Legacy v1 builders")
