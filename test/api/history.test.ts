import { describe, expect, layer } from "@effect/vitest"
import type { Address } from "@solana/kit"
import { Effect } from "effect"
import type { DailyRow } from "../../src/domain/history/dailyRow.ts"
import { fetchJson } from "../support/httpFetch.ts"
import { gatewayClient, gatewayForTest, serverUrl } from "../../src/bench/support/httpTestServer.ts"
import { TEST_PARTNER_KEY } from "../../src/bench/support/partnerKeyStandIn.ts"
import { liveStatus } from "../../src/bench/support/projectionTest.ts"
import { VaultStateFixture } from "../../src/bench/support/vaultStateFixture.ts"

const keyed = { headers: { "x-api-key": TEST_PARTNER_KEY } }
const VAULT = "J7qhMAKnB6G5dvoAN9281ufabajKbyGQxxd2bq6R7fPJ" as Address
const USDC = "EPjFWdd5AufqSSqeM2qN1xzybapC8G4wEGGkZwyTDt1v" as Address
// Chain time 2026-03-10 12:00 UTC: the last completed day is 2026-03-09.
const NOW = Date.UTC(2026, 2, 10, 12) / 1000

const day = (index: number) => new Date(Date.UTC(2026, 1, 1) + index * 86_400_000).toISOString().slice(0, 10)
const row = (index: number): DailyRow => ({
  date: day(index),
  closingSharePrice: 1_000_000n + BigInt(index) * 1_000n,
  closingTotalShares: 2_000_000_000n,
  depositsRequested: BigInt(index) * 1_000_000n,
  depositFees: 0n,
  withdrawalsPaid: 0n,
  withdrawalFees: 0n,
  feesCharged: 5n,
  events: 3
})
// 2026-02-01 .. 2026-03-10 (the last row is today: not complete, never served)
const rows = Array.from({ length: 38 }, (_, i) => row(i))

const fixture = new VaultStateFixture({ slot: 5_000, blockTime: NOW }).vault(VAULT, {
  bundle: { assetAddress: USDC, bundleUnderlyingBalance: 2_074_000_000n, totalShares: 2_000_000_000n, managementFeeBps: 100 }
})

describe("vault history", () => {
  layer(gatewayForTest({ state: fixture.state, initial: liveStatus(5_000), history: new Map([[VAULT, rows]]) }), {
    excludeTestServices: true
  })((it) => {
    it.effect("snapshots: completed days only, keyset pages through nextCursor", () =>
      Effect.gen(function*() {
        const client = yield* gatewayClient
        const first = yield* client.history.snapshots({ path: { vaultAddress: VAULT }, urlParams: { limit: 20 } })
        expect(first.data.throughDate).toBe("2026-03-09")
        expect(first.data.snapshots.map((s) => s.date)).toEqual(rows.slice(0, 20).map((r) => r.date))
        expect(first.data.snapshots[1]).toEqual({
          date: "2026-02-02",
          closingSharePrice: "1001000",
          closingTotalShares: "2000000000",
          closingTvl: { raw: "2002000000", token: "2002", usd: null },
          // no price was recorded at that close (the stand-in records none)
          closingAssetPrice: null,
          depositsRequested: { raw: "1000000", token: "1" },
          depositFees: { raw: "0", token: "0" },
          withdrawalsPaid: { raw: "0", token: "0" },
          withdrawalFees: { raw: "0", token: "0" },
          feesCharged: { raw: "5", token: "0.000005" },
          events: 3
        })
        const cursor = first.data.nextCursor!
        const second = yield* client.history.snapshots({ path: { vaultAddress: VAULT }, urlParams: { limit: 20, cursor } })
        expect(second.data.snapshots.map((s) => s.date)).toEqual(rows.slice(20, 37).map((r) => r.date))
        expect(second.data.nextCursor).toBeNull()
      }))

    it.effect("snapshots: inclusive date filters; malformed dates, limits and cursors are 400", () =>
      Effect.gen(function*() {
        const url = yield* serverUrl
        const base = `${url}/v2/vault/${VAULT}/snapshots`
        const filtered = yield* fetchJson(`${base}?startDate=2026-02-10&endDate=2026-02-12`, keyed)
        expect(filtered.body.data.snapshots.map((s: { date: string }) => s.date)).toEqual(["2026-02-10", "2026-02-11", "2026-02-12"])
        for (const query of ["startDate=2026-02-30", "startDate=2026-13-01", "endDate=2026-11-32", "startDate=2026-00-10", "endDate=2026-99-99", "endDate=yesterday", "limit=0", "limit=101", "limit=x"]) {
          const response = yield* fetchJson(`${base}?${query}`, keyed)
          expect(response.status, query).toBe(400)
        }
        const page = yield* fetchJson(`${base}?limit=5&startDate=2026-02-01`, keyed)
        const cursor: string = page.body.data.nextCursor
        const tampered = cursor.slice(0, 3) + (cursor[3] === "A" ? "B" : "A") + cursor.slice(4)
        for (const bad of [tampered, "garbage", `${cursor}x`]) {
          const response = yield* fetchJson(`${base}?limit=5&startDate=2026-02-01&cursor=${encodeURIComponent(bad)}`, keyed)
          expect(response.status).toBe(400)
          expect(response.body.error).toBe("INVALID_CURSOR")
        }
        // A genuine cursor used with other filters is refused too.
        const otherFilters = yield* fetchJson(`${base}?limit=5&startDate=2026-02-02&cursor=${encodeURIComponent(cursor)}`, keyed)
        expect(otherFilters.body.error).toBe("INVALID_CURSOR")
        const next = yield* fetchJson(`${base}?limit=5&startDate=2026-02-01&cursor=${encodeURIComponent(cursor)}`, keyed)
        expect(next.body.data.snapshots[0].date).toBe("2026-02-06")
        const legacyId = yield* fetchJson(`${url}/v2/vault/76/snapshots`, keyed)
        expect(legacyId.status).toBe(404)
      }))

    it.effect("metrics: APYs from the daily closes, TVL from the projection, computedAt = chain time", () =>
      Effect.gen(function*() {
        const client = yield* gatewayClient
        const metrics = yield* client.history.metrics({ path: { vaultAddress: VAULT } })
        const last = 1_000_000 + 36 * 1_000
        const apy = (start: number, days: number) => (1 + ((last / start - 1) * (365 / days)) / 365) ** 365 - 1
        expect(metrics.data.apy7d).toBeCloseTo(apy(1_000_000 + 29 * 1_000, 7), 9)
        expect(metrics.data.apy30d).toBeCloseTo(apy(1_000_000 + 6 * 1_000, 30), 9)
        expect(metrics.data.apyInception).toBeCloseTo(apy(1_000_000, 36), 9)
        expect(metrics.data.apy30dAfterFees!).toBeLessThan(metrics.data.apy30d!)
        expect(metrics.data.maxDrawdown).toBe(0)
        expect(metrics.data).toMatchObject({
          bundleKey: VAULT,
          computedAt: NOW,
          throughDate: "2026-03-09",
          historyDays: 37,
          tvl: { asset: { mint: USDC, decimals: 6 }, value: { raw: "2074000000", token: "2074", usd: null } }
        })
      }))
  })
})
