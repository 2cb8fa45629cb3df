import { HttpApi } from "@effect/platform"
import { describe, expect, layer } from "@effect/vitest"
import { Context, Effect, Layer } from "effect"
import { HttpListener } from "../../../layers/uws/HttpServer.ts"
import { ApiRoutesLive } from "../../../layers/uws/ApiRoutes.ts"
import { BuilderCodes } from "../../../services/BuilderCodes.ts"
import { NoPricesLive } from "../../../layers/memory/PricesLive.ts"
import { VaultHistory } from "../../../services/VaultHistory.ts"
import { BadRequestResponse, HeadersTooLargeResponse, InternalErrorResponse, UriTooLongResponse } from "../../../src/api/errors.ts"
import { HistoryApi } from "../../../src/api/history/HistoryApi.ts"
import { HistoryHandlersLive } from "../../../src/api/history/HistoryHandlers.ts"
import { PublicApi } from "../../../src/api/public/PublicApi.ts"
import { PublicHandlersLive } from "../../../src/api/public/PublicHandlers.ts"
import { makeMemoryCodes } from "../../../src/bench/support/buildStandIns.ts"
import { fetchJson } from "../../support/httpFetch.ts"
import { gatewayForTest, listenForTest, serverUrl } from "../../../src/bench/support/httpTestServer.ts"
import { ReferrerHistoryStandIn } from "../../../src/bench/support/referrerHistoryStandIn.ts"
import { PartnerKeyStandIn, TEST_PARTNER_KEY } from "../../../src/bench/support/partnerKeyStandIn.ts"
import { liveStatus, ProjectionTest } from "../../../src/bench/support/projectionTest.ts"
import { VaultStateFixture } from "../../../src/bench/support/vaultStateFixture.ts"
import { VaultSeriesStandIn } from "../../../src/bench/support/vaultSeriesStandIn.ts"

import { AUTOPILOT, countingHistory, DAY, NOW, SECOND, USDC } from "./yieldHistoryFixture.ts"

const PublicAndHistory = HttpApi.make("vault-gateway")
  .add(PublicApi)
  .add(HistoryApi)
  .addError(BadRequestResponse)
  .addError(UriTooLongResponse)
  .addError(HeadersTooLargeResponse)
  .addError(InternalErrorResponse)

const fixture = new VaultStateFixture({ slot: 5_000, blockTime: NOW })
  .vault(AUTOPILOT, { bundle: { assetAddress: USDC, managementFeeBps: 100, performanceFee: 2_000 } })
  .vault(SECOND, { bundle: { assetAddress: USDC, managementFeeBps: 0, performanceFee: 1_000 } })
const reads = new Map<string, number>()
const failNext = { value: false }

class Reads extends Context.Tag("test/YieldReads")<Reads, { readonly reads: Map<string, number>; readonly failNext: { value: boolean } }>() {}

const server = listenForTest(
  ApiRoutesLive(PublicAndHistory).pipe(
    Layer.provide(Layer.merge(PublicHandlersLive, HistoryHandlersLive)),
    Layer.provide(
      Layer.mergeAll(
        Layer.succeed(VaultHistory, countingHistory(reads, failNext)),
        Layer.sync(BuilderCodes, makeMemoryCodes),
        NoPricesLive,
        VaultSeriesStandIn(),
        PartnerKeyStandIn
      )
    )
  )
).pipe(Layer.provideMerge(ProjectionTest({ initial: liveStatus(5_000), state: fixture.state })), Layer.merge(Layer.succeed(Reads, { reads, failNext })))

describe("GET /public/yields", () => {
  layer(server, { excludeTestServices: true })((it) => {
    it.effect("after-fee APYs equal /metrics for each vault, null when the history is too short; read once per completed day", () =>
      Effect.gen(function*() {
        const url = (yield* HttpListener).url
        const { reads } = yield* Reads
        const first = yield* fetchJson(`${url}/public/yields`, { headers: { origin: "https://aggregator.example" } })
        expect(first.status).toBe(200)
        expect(first.headers.get("access-control-allow-origin")).toBe("*")
        const vaults = first.body.data.vaults as Array<Record<string, unknown>>
        expect(vaults.map((v) => v.bundleKey)).toEqual([AUTOPILOT, SECOND].sort())
        // derived from chain state like every read: its chain position, and no price behind any tvlUsd here
        expect(first.body.asOf).toEqual({ slot: expect.any(Number), blockTime: expect.any(Number) })
        expect(first.body.priceAsOf).toBeNull()
        for (const vault of vaults) {
          const metrics = yield* fetchJson(`${url}/v2/vault/${vault.bundleKey}/metrics`, { headers: { "x-api-key": TEST_PARTNER_KEY } })
          expect(metrics.body.asOf).toEqual(first.body.asOf)
          expect(metrics.body.priceAsOf).toBeNull()
          expect(metrics.status).toBe(200)
          expect(vault).toMatchObject({
            apy7dAfterFees: metrics.body.data.apy7dAfterFees,
            apy30dAfterFees: metrics.body.data.apy30dAfterFees,
            apyInceptionAfterFees: metrics.body.data.apyInceptionAfterFees
          })
        }
        const autopilot = vaults.find((v) => v.bundleKey === AUTOPILOT)!
        const second = vaults.find((v) => v.bundleKey === SECOND)!
        // ~0.05 % a day gross is ~20 % a year; after 20 % performance and 1 % management fees ~15 %
        expect(autopilot.apy30dAfterFees).toBeGreaterThan(0.12)
        expect(autopilot.apy30dAfterFees).toBeLessThan(0.18)
        expect(autopilot.apyInceptionAfterFees).not.toBeNull()
        expect(second).toMatchObject({ apy7dAfterFees: null, apy30dAfterFees: null, tvlUsd: null })
        expect(second.apyInceptionAfterFees).not.toBeNull()

        // more requests the same day: no more history reads for the yields list
        const afterFirst = new Map(reads)
        for (let i = 0; i < 5; i++) expect((yield* fetchJson(`${url}/public/yields`)).body).toEqual(first.body)
        expect(reads).toEqual(afterFirst)

        // the next completed day: each vault's history is read once more
        fixture.state.asOf = { slot: 5_200, blockTime: NOW + DAY }
        const nextDay = yield* fetchJson(`${url}/public/yields`)
        yield* fetchJson(`${url}/public/yields`)
        expect(nextDay.status).toBe(200)
        expect(reads.get(AUTOPILOT)).toBe(afterFirst.get(AUTOPILOT)! + 1)
        expect(reads.get(SECOND)).toBe(afterFirst.get(SECOND)! + 1)
        fixture.state.asOf = { slot: 5_000, blockTime: NOW }
      }))

    it.effect("an unreadable history is a 503, and the next request reads it again", () =>
      Effect.gen(function*() {
        const url = (yield* HttpListener).url
        const { failNext } = yield* Reads
        fixture.state.asOf = { slot: 5_400, blockTime: NOW + 2 * DAY }
        failNext.value = true
        const failed = yield* fetchJson(`${url}/public/yields`)
        expect(failed.status).toBe(503)
        expect(failed.body).toMatchObject({ success: false, error: "PROJECTION_UNAVAILABLE" })
        const retried = yield* fetchJson(`${url}/public/yields`)
        expect(retried.status).toBe(200)
        expect(retried.body.data.vaults).toHaveLength(2)
        fixture.state.asOf = { slot: 5_000, blockTime: NOW }
      }))
  })
})


describe("GET /public/yields while the history rollup has stored nothing", () => {
  const pending = new VaultStateFixture({ slot: 5_000, blockTime: NOW }).vault(AUTOPILOT, { bundle: { assetAddress: USDC } })
  layer(
    gatewayForTest({
      state: pending.state,
      initial: liveStatus(5_000),
      referrerHistory: ReferrerHistoryStandIn([], { closedThrough: null, coveredThrough: null })
    }),
    { excludeTestServices: true }
  )((it) => {
    it.effect("503 history_pending with Retry-After, like /metrics: not APYs that look like a short history", () =>
      Effect.gen(function*() {
        const url = yield* serverUrl
        const answer = yield* fetchJson(`${url}/public/yields`)
        expect(answer.status).toBe(503)
        expect(answer.body).toMatchObject({ success: false, error: "PROJECTION_UNAVAILABLE", status: "history_pending" })
        expect(Number(answer.headers.get("retry-after"))).toBeGreaterThan(0)
      }))
  })
})
