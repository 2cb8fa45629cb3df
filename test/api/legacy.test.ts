import { describe, expect, it, layer } from "@effect/vitest"
import type { Address } from "@solana/kit"
import { Effect } from "effect"
import type { DailyRow } from "../../src/domain/history/dailyRow.ts"
import { NTBUNDLE_PROGRAM_ID } from "../../src/ntbundle/programs.ts"
import { fetchJson } from "../support/httpFetch.ts"
import { gatewayClient, gatewayForTest, serverUrl } from "../../src/bench/support/httpTestServer.ts"
import { liveStatus } from "../../src/bench/support/projectionTest.ts"
import { ReferrerHistoryStandIn } from "../../src/bench/support/referrerHistoryStandIn.ts"
import { TEST_PARTNER_KEY } from "../../src/bench/support/partnerKeyStandIn.ts"
import { VaultStateFixture } from "../../src/bench/support/vaultStateFixture.ts"

const keyed = { headers: { "x-api-key": TEST_PARTNER_KEY } }

const MASTER = "J7qhMAKnB6G5dvoAN9281ufabajKbyGQxxd2bq6R7fPJ" as Address // id 76
const FUNDING_ARB = "nE1x7KQq2sm3GQrafQUUdBkSPPT52FmiMM9qAS1dgnC" as Address // id 48
const UNLISTED = "BUNDeH5A4c47bcEoAjBhN3sCjLgYnRsmt9ibMztqVkC9" as Address
const USDC = "EPjFWdd5AufqSSqeM2qN1xzybapC8G4wEGGkZwyTDt1v" as Address

// Chain time of the fixture: 2027-01-15 08:00 UTC, so the last completed day is 2027-01-14.
const day = (index: number) => new Date(Date.UTC(2026, 11, 1) + index * 86_400_000).toISOString().slice(0, 10)
const history: Array<DailyRow> = Array.from({ length: 45 }, (_, i) => ({
  date: day(i),
  closingSharePrice: i < 2 ? null : 1_000_000n + BigInt(i - 2) * 500n,
  closingTotalShares: i < 2 ? null : 3_000_000n,
  depositsRequested: 0n,
  depositFees: 0n,
  withdrawalsPaid: 0n,
  withdrawalFees: 0n,
  feesCharged: 0n,
  events: 1
}))

const fixture = new VaultStateFixture({ slot: 1_000, blockTime: Date.UTC(2027, 0, 15, 8) / 1000 })
  .vault(MASTER, {
    bundle: {
      assetAddress: USDC, minDepositAmount: 5_000_000n, maxDepositAmount: 2_500_000_000_000n,
      managementFeeBps: 100, withdrawalFee: 30, withdrawalDelay: 86_400n, withdrawalTMax: 604_800n
    }
  })
  .vault(FUNDING_ARB, { bundle: { assetAddress: USDC } })
  .vault(UNLISTED)

describe("legacy v1 reads", () => {
  layer(gatewayForTest({ state: fixture.state, initial: liveStatus(1_000), history: new Map([[MASTER, history]]) }), {
    excludeTestServices: true
  })((it) => {
    it.effect("GET /api/v1/vault/{id}/config: a bare VaultConfig with JSON numbers, Deprecation and a Link to v2", () =>
      Effect.gen(function*() {
        const url = yield* serverUrl
        const response = yield* fetchJson(`${url}/api/v1/vault/76/config`, keyed)
        expect(response.status).toBe(200)
        expect(response.headers.get("deprecation")).toBe("true")
        expect(response.headers.get("link")).toBe(`</v2/vault/${MASTER}>; rel="successor-version"`)
        expect(response.body).toEqual({
          vaultId: 76,
          name: "Master Bundle",
          subname: null,
          type: "Bundle",
          category: "Master Vault",
          chain: "solana",
          vaultAddress: MASTER,
          depositToken: "USDC",
          depositTokenAddress: USDC,
          depositTokenDecimals: 6,
          tvlCap: 2_500_000,
          minDepositAmount: 5,
          minWithdrawAmount: null,
          depositLock: 86_400,
          redeemLock: 604_800,
          processFrequency: null,
          processTime: null,
          performanceFee: 0,
          managementFee: 1,
          depositFee: 0,
          withdrawalFee: 0.3,
          enabled: true,
          private: false,
          deprecated: false,
          ntMultiplier: 2,
          bundleProgramId: NTBUNDLE_PROGRAM_ID
        })
      }))

    it.effect("GET /api/v1/vaults: catalog vaults present on the program, bare array", () =>
      Effect.gen(function*() {
        const client = yield* gatewayClient
        const vaults = yield* client.legacy.vaults()
        expect(vaults.map((vault) => vault.vaultId)).toEqual([48, 76])
        const url = yield* serverUrl
        const raw = yield* fetchJson(`${url}/api/v1/vaults`, keyed)
        expect(raw.headers.get("link")).toBe(`</v2/vaults>; rel="successor-version"`)
        expect(Array.isArray(raw.body)).toBe(true)
        expect(vaults.some((vault) => vault.vaultAddress === UNLISTED)).toBe(false)
      }))

    it.effect("GET /api/v1/vault/{id}/snapshots and /metrics: bare, token-unit numbers, percentages", () =>
      Effect.gen(function*() {
        const url = yield* serverUrl
        const snapshots = yield* fetchJson(`${url}/api/v1/vault/76/snapshots`, keyed)
        expect(snapshots.status).toBe(200)
        expect(snapshots.headers.get("link")).toBe(`</v2/vault/${MASTER}/snapshots>; rel="successor-version"`)
        // 2026-12-03 (first close) .. 2027-01-14 (last completed day): 43 rows.
        expect(snapshots.body).toHaveLength(43)
        expect(snapshots.body[0]).toEqual({ date: "2026-12-03", tvl: 3, pps: 1, pps_before_offset: 1, shares: 3, isBacktest: false })
        expect(snapshots.body[42]).toEqual({ date: "2027-01-14", tvl: 3.063, pps: 1.021, pps_before_offset: 1.021, shares: 3, isBacktest: false })

        const metrics = yield* fetchJson(`${url}/api/v1/vault/76/metrics`, keyed)
        expect(metrics.status).toBe(200)
        expect(metrics.headers.get("link")).toBe(`</v2/vault/${MASTER}/metrics>; rel="successor-version"`)
        expect(metrics.body).toMatchObject({
          vaultId: 76, name: "Master Bundle", aprDayApplied: 30, roiSince: "2026-12-03", dateFromSnapshot: "2027-01-14",
          currentTVLUSD: null, allocations: null, maxDrawdown: 0
        })
        expect(metrics.body.roi).toBeCloseTo(2.1, 9)
        expect(metrics.body.roi30d).toBeCloseTo((1.021 / 1.006 - 1) * 100, 9)
        expect(metrics.body.apr).toBeCloseTo((1.021 / 1.006 - 1) * (365 / 30) * 100, 9)
        const unknown = yield* fetchJson(`${url}/api/v1/vault/49/metrics`, keyed)
        expect(unknown.status).toBe(404)
      }))

    it.effect("ids with no ntbundle vault are 404; non-numeric ids 400; no key 401 (still marked deprecated)", () =>
      Effect.gen(function*() {
        const url = yield* serverUrl
        for (const id of ["1", "49", "999999"]) { // 1: a Drift vault; 49: registry vault not on this chain
          const response = yield* fetchJson(`${url}/api/v1/vault/${id}/config`, keyed)
          expect(response.status).toBe(404)
          expect(response.body.error).toBe("VAULT_NOT_FOUND")
          expect(response.headers.get("deprecation")).toBe("true")
        }
        const malformed = yield* fetchJson(`${url}/api/v1/vault/abc/config`, keyed)
        expect(malformed.status).toBe(400)
        const anonymous = yield* fetchJson(`${url}/api/v1/vault/76/config`)
        expect(anonymous.status).toBe(401)
        expect(anonymous.headers.get("deprecation")).toBe("true")
      }))
  })

  layer(
    gatewayForTest({
      state: fixture.state,
      initial: liveStatus(1_000),
      history: new Map([[MASTER, history]]),
      referrerHistory: ReferrerHistoryStandIn([], { closedThrough: "2027-01-10", coveredThrough: null })
    }),
    { excludeTestServices: true }
  )((it) => {
    it.effect("metrics and snapshots: 503 history_pending with Retry-After while the days through yesterday are not stored", () =>
      Effect.gen(function*() {
        const url = yield* serverUrl
        for (const route of ["metrics", "snapshots"]) {
          const response = yield* fetchJson(`${url}/api/v1/vault/76/${route}`, keyed)
          expect(response.status).toBe(503)
          expect(response.body).toMatchObject({ success: false, error: "PROJECTION_UNAVAILABLE", status: "history_pending" })
          expect(Number(response.headers.get("retry-after"))).toBeGreaterThan(0)
        }
        const config = yield* fetchJson(`${url}/api/v1/vault/76/config`, keyed)
        expect(config.status).toBe(200)
      }))
  })
})
