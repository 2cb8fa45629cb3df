import { FetchHttpClient, HttpApiClient, HttpClient, HttpClientRequest } from "@effect/platform"
import { describe, expect, it, layer } from "@effect/vitest"
import { Effect, Either, Layer, ParseResult, Schema } from "effect"
import { BuilderCodes } from "../../../services/BuilderCodes.ts"
import { Api } from "../../../src/api/Api.ts"
import {
  DepositBuildAnswer,
  DepositPreviewAnswer,
  WithdrawBuildAnswer,
  WithdrawPreviewAnswer
} from "../../../src/api/builds/BuildsApi.ts"
import { DepositRequest, WithdrawRequest } from "../../../src/api/builds/buildSchemas.ts"
import { openApiDocument } from "../../../src/api/docs.ts"
import { servedWorld } from "./servedWorld.ts"
import { makeMemoryCodes } from "../../../src/bench/support/buildStandIns.ts"
import { alice, bob, builder, eligibleBuilder, NOW, vault, withSpecs, type WorldSpec } from "../../../src/bench/support/buildWorld.ts"
import { gatewayForTest, serverUrl } from "../../../src/bench/support/httpTestServer.ts"
import { TEST_PARTNER_KEY } from "../../../src/bench/support/partnerKeyStandIn.ts"
import { liveStatus } from "../../../src/bench/support/projectionTest.ts"
import { fetchJson } from "../../support/httpFetch.ts"

// The documented build and preview schemas against real answers of the server: every answer is
// decoded strictly (an undocumented field is an error, like a missing or mistyped one), and the
// typed client, which decodes with the same contract, reads them too.
const { served, become } = servedWorld(2_000_000)

const holder: WorldSpec = {
  positions: [{ owner: alice, fields: { shares: 100_000_000n, netDeposits: 100_000_000n, lastDepositTimestamp: NOW - 86_400n } }]
}

const strictly = <A, I>(schema: Schema.Schema<A, I>) => {
  const decode = Schema.decodeUnknownEither(schema, { onExcessProperty: "error", errors: "all" })
  return (body: unknown, label: string): A => {
    const decoded = decode(body)
    if (Either.isLeft(decoded)) {
      throw new Error(`${label}: the answer does not match the documented schema\n${ParseResult.TreeFormatter.formatErrorSync(decoded.left)}`)
    }
    return decoded.right
  }
}

const codes = Layer.effect(
  BuilderCodes,
  Effect.gen(function*() {
    const memory = makeMemoryCodes()
    yield* memory.set("ACME", builder)
    return memory
  })
)

describe("documented build and preview schemas", () => {
  layer(gatewayForTest({ initial: liveStatus(100), state: served, buildsPerMinute: 1_000_000, builderCodes: codes }), {
    excludeTestServices: true
  })((it) => {
    it.effect("deposit answers (accepted, refused, attribution applied and not applied) decode with the documented schema", () =>
      Effect.gen(function*() {
        const url = yield* serverUrl
        const post = (body: object) =>
          fetchJson(`${url}/v2/vault/${vault}/tx/deposit`, {
            method: "POST",
            headers: { "content-type": "application/json" },
            body: JSON.stringify(body)
          })
        const decode = strictly(DepositBuildAnswer)
        const cases: ReadonlyArray<readonly [string, WorldSpec, object, (data: typeof DepositBuildAnswer.Type["data"]) => void]> = [
          ["plain", holder, { userAddress: alice, amountRaw: "5000000" }, (data) => {
            expect(data.validation.accepted).toBe(true)
            expect(data).not.toHaveProperty("attribution")
          }],
          ["below the minimum", holder, { userAddress: alice, amountRaw: "1" }, (data) => {
            expect(data.validation).toMatchObject({ accepted: false, rejectionReasons: [{ code: "MIN_DEPOSIT_AMOUNT_NOT_MET" }] })
          }],
          ["attributed to a wallet", eligibleBuilder, { userAddress: alice, amountRaw: "5000000", referrer: builder }, (data) => {
            expect(data.attribution).toEqual({ applied: true, referrer: builder })
          }],
          ["attributed through a code", eligibleBuilder, { userAddress: alice, amountRaw: "5000000", code: "ACME" }, (data) => {
            expect(data.attribution).toEqual({ applied: true, referrer: builder, code: "ACME" })
          }],
          ["an unknown code", eligibleBuilder, { userAddress: alice, amountRaw: "5000000", code: "NOPE" }, (data) => {
            expect(data.validation.accepted).toBe(true)
            expect(data.attribution).toEqual({ applied: false, reason: "UNKNOWN_CODE" })
          }],
          [
            "referrals disabled, strict",
            withSpecs(eligibleBuilder, { bundle: { referrerEnabled: false } }),
            { userAddress: alice, amountRaw: "5000000", referrer: builder, requireAttribution: true },
            (data) => {
              expect(data.validation).toMatchObject({ accepted: false, rejectionReasons: [{ code: "ATTRIBUTION_REQUIRED" }] })
              expect(data.attribution).toMatchObject({ applied: false, reason: "REFERRALS_DISABLED" })
            }
          ],
          [
            "already bound to the builder",
            withSpecs(eligibleBuilder, { positions: [{ owner: alice, fields: { shares: 1n, referrer: builder } }] }),
            { userAddress: alice, amountRaw: "5000000", referrer: builder },
            (data) => {
              expect(data.attribution).toEqual({
                applied: false,
                reason: "REFERRAL_ALREADY_SET",
                existingReferrer: builder,
                existingReferrerMatchesRequest: true
              })
            }
          ]
        ]
        for (const [label, spec, body, check] of cases) {
          become(spec)
          const answer = yield* post(body)
          expect(answer.status, label).toBe(200)
          const decoded = decode(answer.body, label)
          expect(decoded.asOf, label).toEqual(served.asOf)
          check(decoded.data)
        }
      }))

    it.effect("withdraw answers (accepted, refused) decode with the documented schema", () =>
      Effect.gen(function*() {
        const url = yield* serverUrl
        const decode = strictly(WithdrawBuildAnswer)
        const post = (body: object) =>
          fetchJson(`${url}/v2/vault/${vault}/tx/withdraw`, {
            method: "POST",
            headers: { "content-type": "application/json" },
            body: JSON.stringify(body)
          })
        become(holder)
        const all = decode((yield* post({ userAddress: alice, withdrawAll: true })).body, "withdrawAll")
        expect(all.data).toMatchObject({ validation: { accepted: true }, sharesAmount: "100000000" })
        const part = decode((yield* post({ userAddress: alice, amountRaw: "1000000" })).body, "amountRaw")
        expect(part.data.validation.accepted).toBe(true)
        const none = decode((yield* post({ userAddress: bob, withdrawAll: true })).body, "no position")
        expect(none.data.validation).toMatchObject({ accepted: false, rejectionReasons: [{ code: "USER_BUNDLE_ACCOUNT_NOT_FOUND" }] })
        expect(none.asOf.slot).toBe(served.asOf!.slot)
      }))

    it.effect("previews (accepted and refused) decode with the documented schemas", () =>
      Effect.gen(function*() {
        const url = yield* serverUrl
        const get = (path: string) => fetchJson(`${url}/v2/vault/${vault}/${path}`, { headers: { "x-api-key": TEST_PARTNER_KEY } })
        const deposit = strictly(DepositPreviewAnswer)
        const withdraw = strictly(WithdrawPreviewAnswer)
        become(holder)
        expect(deposit((yield* get("simulate-deposit?amountRaw=5000000")).body, "deposit").data.accepted).toBe(true)
        const small = deposit((yield* get("simulate-deposit?amountRaw=1")).body, "small deposit")
        expect(small.data.rejectionReasons.map((reason) => reason.code)).toEqual(["MIN_DEPOSIT_AMOUNT_NOT_MET"])
        expect(small.asOf).toEqual(served.asOf)
        expect(withdraw((yield* get("simulate-withdraw?sharesRaw=1000000")).body, "withdraw").data.accepted).toBe(true)
        const tooMuch = withdraw((yield* get(`simulate-withdraw?sharesRaw=${10n ** 30n}`)).body, "too many shares")
        expect(tooMuch.data.rejectionReasons.map((reason) => reason.code)).toEqual(["WITHDRAWAL_EXCEEDS_VAULT"])
        become({ ...holder, temp: { pausedDepositsWithdrawals: true } })
        const paused = withdraw((yield* get("simulate-withdraw?amountRaw=1000000")).body, "paused")
        expect(paused.data.accepted).toBe(false)
      }))

    it.effect("the typed client over the same contract reads builds and previews", () =>
      Effect.gen(function*() {
        const client = yield* HttpApiClient.make(Api, {
          baseUrl: yield* serverUrl,
          transformClient: HttpClient.mapRequest(HttpClientRequest.setHeader("x-api-key", TEST_PARTNER_KEY))
        }).pipe(Effect.provide(FetchHttpClient.layer))
        become(eligibleBuilder)
        const built = yield* client.builds.deposit({
          path: { vaultAddress: vault },
          payload: { userAddress: alice, amountRaw: "5000000", referrer: builder }
        })
        expect(built.data.validation.accepted).toBe(true)
        expect(built.data.attribution).toEqual({ applied: true, referrer: builder })
        const refused = yield* client.builds.withdraw({ path: { vaultAddress: vault }, payload: { userAddress: bob, withdrawAll: true } })
        expect(refused.data.validation.accepted).toBe(false)
        const preview = yield* client.builds.previewDeposit({ path: { vaultAddress: vault }, urlParams: { amountRaw: "5000000" } })
        expect(preview.data.grossAmountRaw).toBe("5000000")
        // a malformed body still meets the build core's own code, not a generic decode failure
        const malformed = yield* Effect.flip(
          client.builds.deposit({ path: { vaultAddress: vault }, payload: { userAddress: alice, amountRaw: "0100" } })
        )
        expect(malformed).toMatchObject({ code: "INVALID_AMOUNT_RAW" })
      }))
  })
})

describe("documented build bodies", () => {
  const requestBodyRef = (path: string) =>
    (openApiDocument(Api).paths as any)[path].post.requestBody.content["application/json"].schema.$ref

  it.effect("the document shows the typed deposit and withdraw bodies, not an open object", () =>
        Effect.sync(() => {
          expect(requestBodyRef("/v2/vault/{vaultAddress}/tx/deposit")).toBe("#/components/schemas/DepositRequest")
          expect(requestBodyRef("/v2/vault/{vaultAddress}/tx/withdraw")).toBe("#/components/schemas/WithdrawRequest")
        }))

  it.effect("the request schemas accept the bodies the builders accept and refuse mixed ones", () =>
        Effect.sync(() => {
          const deposit = Schema.decodeUnknownEither(DepositRequest, { onExcessProperty: "error" })
          const withdraw = Schema.decodeUnknownEither(WithdrawRequest, { onExcessProperty: "error" })
          expect(Either.isRight(deposit({ userAddress: alice, amountRaw: "5" }))).toBe(true)
          expect(Either.isRight(deposit({ userAddress: alice, amountRaw: "5", code: "ACME", requireAttribution: true }))).toBe(true)
          expect(Either.isLeft(deposit({ userAddress: alice, amountRaw: "5", code: "ACME", referrer: builder }))).toBe(true)
          expect(Either.isLeft(deposit({ userAddress: alice, amountRaw: "05" }))).toBe(true)
          expect(Either.isLeft(deposit({ userAddress: alice, amountRaw: "5", requireAttribution: true }))).toBe(true)
          expect(Either.isRight(withdraw({ userAddress: alice, withdrawAll: true }))).toBe(true)
          expect(Either.isLeft(withdraw({ userAddress: alice, withdrawAll: true, amountRaw: "1" }))).toBe(true)
        }))
})
