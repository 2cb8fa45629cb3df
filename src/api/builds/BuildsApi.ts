import * as HttpApiEndpoint from "@effect/platform/HttpApiEndpoint"
import * as HttpApiGroup from "@effect/platform/HttpApiGroup"
import * as OpenApi from "@effect/platform/OpenApi"
import { Schema } from "effect"
import { MaxBodyBytes, PublicCors } from "../annotations.ts"
import { PayloadTooLargeResponse, ProjectionUnavailableResponse } from "../errors.ts"
import { Address } from "../schemas.ts"
import { BlockhashUnavailableResponse, MalformedRequestResponse, SimulationFailedResponse, UnknownVaultResponse } from "./buildErrors.ts"
import { PartnerKey } from "../security/PartnerKey.ts"
import { BuildMeter } from "./BuildMeter.ts"
import {
  bodyDocumentedAs,
  DepositBuildBody,
  DepositPreviewBody,
  DepositRequest,
  queryAmount,
  WithdrawBuildBody,
  WithdrawPreviewBody,
  WithdrawRequest
} from "./buildSchemas.ts"

const VaultPath = Schema.Struct({ vaultAddress: Address })

/** Builder bodies are a few hundred bytes; anything near this limit is not a build request. */
const BUILD_BODY_LIMIT_BYTES = 4096

const ACCEPTED_OR_REFUSED =
  "Accepted: an unsigned v0 transaction (fee payer and only signer = userAddress, signature slot empty, no lookup tables) " +
  "and the same instructions in the legacy wire shape. Refused by policy: HTTP 200 with validation.accepted = false and " +
  "rejectionReasons, no transaction. With server simulation on (BUILD_SIMULATION), an accepted build is preflighted with " +
  "simulateTransaction: its computeUnitLimit is the units consumed plus a margin (simulation = \"simulated\"), a transaction the " +
  "chain would reject is a 422 SIMULATION_FAILED with the program logs, and a node that cannot answer leaves the per-instruction " +
  "estimate (simulation = \"skipped\")."

export const DepositBuildAnswer = DepositBuildBody(ACCEPTED_OR_REFUSED)
export const WithdrawBuildAnswer = WithdrawBuildBody(ACCEPTED_OR_REFUSED)

const builder = <const Name extends "deposit" | "withdraw", S extends Schema.Schema.Any>(
  name: Name,
  documentedBody: Schema.Schema.Any,
  success: S,
  body: string
) =>
  HttpApiEndpoint.post(name, `/v2/vault/:vaultAddress/tx/${name}`)
    .setPath(VaultPath)
    .setPayload(bodyDocumentedAs(documentedBody))
    .addSuccess(success)
    .addError(MalformedRequestResponse)
    .addError(UnknownVaultResponse)
    .addError(PayloadTooLargeResponse)
    .addError(ProjectionUnavailableResponse)
    .addError(BlockhashUnavailableResponse)
    .addError(SimulationFailedResponse)
    .middleware(BuildMeter)
    .annotate(MaxBodyBytes, BUILD_BODY_LIMIT_BYTES)
    .annotate(PublicCors, true)
    .annotate(OpenApi.Description, `${body} Public (no key), CORS, metered per client IP. ${ACCEPTED_OR_REFUSED}`)

const ESTIMATES =
  "Estimates from projected state only, no RPC call: shares are minted at the price of the keeper's processing, a " +
  "withdrawal's value moves during its cooldown, and user-specific conditions (balance, allowlist, pending requests, " +
  "fee overrides) are not checked."

export const DepositPreviewAnswer = DepositPreviewBody(ESTIMATES)
export const WithdrawPreviewAnswer = WithdrawPreviewBody(ESTIMATES)

/** Public unsigned transaction builders and their previews. */
export const BuildsApi = HttpApiGroup.make("builds")
  .add(
    builder("deposit", DepositRequest, DepositBuildAnswer, "Body {userAddress, amountRaw, code?, referrer?, requireAttribution?, priorityFeeMicroLamports?}.")
      .annotate(OpenApi.Summary, "Build an unsigned deposit transaction")
  )
  .add(
    builder("withdraw", WithdrawRequest, WithdrawBuildAnswer, "Body {userAddress, amountRaw} or {userAddress, withdrawAll: true}, plus priorityFeeMicroLamports?.")
      .annotate(OpenApi.Summary, "Build an unsigned withdrawal request transaction")
  )
  .add(
    HttpApiEndpoint.get("previewDeposit", "/v2/vault/:vaultAddress/simulate-deposit")
      .setPath(VaultPath)
      .setUrlParams(Schema.Struct({ amountRaw: Schema.optional(queryAmount("gross deposit in raw asset units (required)")) }))
      .addSuccess(DepositPreviewAnswer)
      .addError(MalformedRequestResponse)
      .addError(UnknownVaultResponse)
      .addError(ProjectionUnavailableResponse)
      .middleware(PartnerKey)
      .annotate(OpenApi.Summary, "Preview a deposit: fee, net and estimated shares (estimates)")
      .annotate(OpenApi.Description, ESTIMATES)
  )
  .add(
    HttpApiEndpoint.get("previewWithdraw", "/v2/vault/:vaultAddress/simulate-withdraw")
      .setPath(VaultPath)
      .setUrlParams(
        Schema.Struct({
          sharesRaw: Schema.optional(queryAmount("shares to withdraw (exactly one of sharesRaw and amountRaw)", true)),
          amountRaw: Schema.optional(queryAmount("asset value to withdraw (exactly one of sharesRaw and amountRaw)"))
        })
      )
      .addSuccess(WithdrawPreviewAnswer)
      .addError(MalformedRequestResponse)
      .addError(UnknownVaultResponse)
      .addError(ProjectionUnavailableResponse)
      .middleware(PartnerKey)
      .annotate(OpenApi.Summary, "Preview a withdrawal: value, fee, net, cooldown (estimates)")
      .annotate(OpenApi.Description, ESTIMATES)
  )
  .annotate(OpenApi.Title, "Builds")
