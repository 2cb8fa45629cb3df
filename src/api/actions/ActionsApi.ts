import * as HttpApiEndpoint from "@effect/platform/HttpApiEndpoint"
import * as HttpApiGroup from "@effect/platform/HttpApiGroup"
import * as HttpApiMiddleware from "@effect/platform/HttpApiMiddleware"
import * as OpenApi from "@effect/platform/OpenApi"
import { Schema } from "effect"
import { CacheControl, type CorsPolicy, MaxBodyBytes, PublicCors } from "../annotations.ts"
import { BuildRefusedResponse } from "../builds/LegacyBuildsApi.ts"
import { BuildMeter } from "../builds/BuildMeter.ts"
import {
  BlockhashUnavailableResponse,
  MalformedRequestResponse,
  SimulationFailedResponse,
  UnknownVaultResponse
} from "../builds/buildErrors.ts"
import { PayloadTooLargeResponse, ProjectionUnavailableResponse } from "../errors.ts"
import { BUILDER_CODE } from "../../domain/builderCode.ts"
import { Address } from "../schemas.ts"
import {
  ACTIONS_SPEC_VERSION,
  ActionGetResponse,
  ActionPostRequest,
  ActionPostResponse,
  ActionsJson,
  CompletedAction,
  NextActionPostRequest
} from "./actionSchemas.ts"

/** Adds `X-Blockchain-Ids` (the followed cluster's CAIP-2 id) to every Actions answer. */
export class ActionsChain extends HttpApiMiddleware.Tag<ActionsChain>()("ActionsChain", { failure: Schema.Never }) {}

/** The specification's CORS: any origin, its methods and headers, its own headers exposed. */
const ACTIONS_CORS: CorsPolicy = {
  allowMethods: "GET,POST,PUT,OPTIONS",
  allowHeaders: "Content-Type, Authorization, Content-Encoding, Accept-Encoding, X-Accept-Action-Version, X-Accept-Blockchain-Ids",
  exposeHeaders: "X-Action-Version, X-Blockchain-Ids, X-Request-Id, Retry-After, X-RateLimit-Limit, X-RateLimit-Remaining, X-RateLimit-Reset",
  answerHeaders: [["x-action-version", ACTIONS_SPEC_VERSION]]
}

const VaultPath = Schema.Struct({ vaultAddress: Address })

const MAJOR_UNITS = "^(0|[1-9][0-9]{0,19})(\\.[0-9]{1,18})?$"

/** People type the amount in a blink: major units ("12.5"), checked against the token's decimals by the handler. */
const majorAmount = (description: string) =>
  Schema.String.annotations({ jsonSchema: { type: "string", pattern: MAJOR_UNITS, maxLength: 40, description } })

const ATTRIBUTION = "Attribution as on POST /v2/vault/{vaultAddress}/tx/deposit: `code` (a builder code) or `referrer` (a builder wallet)."

const BUILT =
  "Built by the same flow as the v2 builders (same validation, simulation and per-IP metering); a refusal by the vault's " +
  "policy is a 422 whose `message` gives the reasons (the Actions error shape). The answer links a callback " +
  "(`links.next`) that reports the pending request once the transaction is confirmed."

const DepositQuery = Schema.Struct({
  amount: Schema.optional(majorAmount("gross deposit in the token's major units, e.g. 12.5 (required)")),
  code: Schema.optional(Schema.String.annotations({ description: "builder code" })),
  referrer: Schema.optional(Schema.String.annotations({ description: "builder wallet (base58)" }))
})

const WithdrawQuery = Schema.Struct({
  amount: Schema.optional(majorAmount("value to withdraw in the deposit token's major units (or all=true)")),
  all: Schema.optional(Schema.Literal("true").annotations({ description: "withdraw the whole position (instead of amount)" }))
})

const transactionEndpoint = <const Name extends string, const Path extends `/${string}`>(name: Name, path: Path) =>
  HttpApiEndpoint.post(name, path)
    .setPath(VaultPath)
    .setPayload(ActionPostRequest)
    .addSuccess(ActionPostResponse)
    .addError(MalformedRequestResponse)
    .addError(UnknownVaultResponse)
    .addError(BuildRefusedResponse)
    .addError(SimulationFailedResponse)
    .addError(PayloadTooLargeResponse)
    .addError(ProjectionUnavailableResponse)
    .addError(BlockhashUnavailableResponse)
    .middleware(BuildMeter)

const BuilderCode = Schema.String.pipe(Schema.pattern(BUILDER_CODE)).annotations({ description: "builder code" })

/** Attribution a blink's link may carry; the card's POST links keep it. */
const AttributionQuery = Schema.Struct({
  code: Schema.optional(BuilderCode),
  referrer: Schema.optional(Address.annotations({ description: "builder wallet" }))
})

const metadataEndpoint = <const Name extends string, const Path extends `/${string}`>(name: Name, path: Path) =>
  HttpApiEndpoint.get(name, path)
    .setPath(VaultPath)
    .setUrlParams(AttributionQuery)
    .addError(MalformedRequestResponse)
    .addSuccess(ActionGetResponse)
    .addError(UnknownVaultResponse)
    .addError(ProjectionUnavailableResponse)

const callbackEndpoint = <const Name extends string, const Path extends `/${string}`>(name: Name, path: Path) =>
  HttpApiEndpoint.post(name, path)
    .setPath(VaultPath)
    .setPayload(NextActionPostRequest)
    .addSuccess(CompletedAction)
    .addError(UnknownVaultResponse)
    .addError(PayloadTooLargeResponse)
    .addError(ProjectionUnavailableResponse)

/** Solana Actions: deposit and withdraw as blinks any Actions-aware wallet or site can render. */
export const ActionsApi = HttpApiGroup.make("actions")
  .add(
    HttpApiEndpoint.get("actionsJson", "/actions.json")
      .addSuccess(ActionsJson)
      .annotate(CacheControl, "public, max-age=300")
      .annotate(OpenApi.Summary, "Solana Actions: which paths of this origin are actions")
  )
  .add(
    metadataEndpoint("depositAction", "/actions/vault/:vaultAddress/deposit")
      .annotate(OpenApi.Summary, "Solana Action: deposit into a vault (metadata)")
      .annotate(OpenApi.Description, "The vault's name, deposit asset, after-fee APY and deposit bounds, with an `amount` input in the token's major units.")
  )
  .add(
    transactionEndpoint("depositTransaction", "/actions/vault/:vaultAddress/deposit")
      .setUrlParams(DepositQuery)
      .annotate(OpenApi.Summary, "Solana Action: build the deposit transaction for {account}")
      .annotate(OpenApi.Description, `${BUILT} ${ATTRIBUTION}`)
  )
  .add(
    callbackEndpoint("depositCompleted", "/actions/vault/:vaultAddress/deposit/next")
      .annotate(OpenApi.Summary, "Solana Action chain: the deposit request after its transaction confirmed")
  )
  .add(
    metadataEndpoint("withdrawAction", "/actions/vault/:vaultAddress/withdraw")
      .annotate(OpenApi.Summary, "Solana Action: request a withdrawal from a vault (metadata)")
      .annotate(OpenApi.Description, "The vault's name, asset and withdrawal policy, with an `amount` input in major units and a withdraw-all action.")
  )
  .add(
    transactionEndpoint("withdrawTransaction", "/actions/vault/:vaultAddress/withdraw")
      .setUrlParams(WithdrawQuery)
      .annotate(OpenApi.Summary, "Solana Action: build the withdrawal request transaction for {account}")
      .annotate(OpenApi.Description, BUILT)
  )
  .add(
    callbackEndpoint("withdrawCompleted", "/actions/vault/:vaultAddress/withdraw/next")
      .annotate(OpenApi.Summary, "Solana Action chain: the withdrawal request after its transaction confirmed")
  )
  .middleware(ActionsChain)
  .annotate(MaxBodyBytes, 1024)
  .annotate(PublicCors, ACTIONS_CORS)
  .annotate(OpenApi.Title, "Solana Actions")
