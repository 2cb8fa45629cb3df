import { describe, expect, layer } from "@effect/vitest"
import type { Address } from "@solana/kit"
import { Effect } from "effect"
import type { DailyRow } from "../../src/domain/history/dailyRow.ts"
import { fetchJson } from "../support/httpFetch.ts"
import { gatewayForTest, serverUrl } from "../../src/bench/support/httpTestServer.ts"
import { TEST_PARTNER_KEY } from "../../src/bench/support/partnerKeyStandIn.ts"
import { liveStatus } from "../../src/bench/support/projectionTest.ts"
import { VaultStateFixture } from "../../src/bench/support/vaultStateFixture.ts"

const keyed = { headers: { "x-api-key": TEST_PARTNER_KEY } }
const VAULT = "J7qhMAKnB6G5dvoAN9281ufabajKbyGQxxd2bq6R7fPJ" as Address
const USDC = "EPjFWdd5AufqSSqeM2qN1xzybapC8G4wEGGkZwyTDt1v" as Address
// Chain time 2026-03-10 12:00 UTC: the last completed day is 2026-03-09.
const NOW = Date.UTC(2026, 2, 10, 12) / 1000

const day = (index: number) => new Date(Date.UTC(2026, 1, 1) + index * 86_400_000).toISOString().slice(0, 10)
// Prices rise every other day (the stand-in's events are the days whose close moved).
const row = (index: number): DailyRow => ({
  date: day(index),
  closingSharePrice: index < 2 ? null : 1_000_000n + BigInt(Math.floor(index / 2)) * 1_000n,
  closingTotalShares: 2_000_000_000n,
  depositsRequested: 0n,
  depositFees: 0n,
  withdrawalsPaid: 0n,
  withdrawalFees: 0n,
  feesCharged: 0n,
  events: 1
})
const rows = Array.from({ length: 38 }, (_, i) => row(i))

const fixture = new VaultStateFixture({ slot: 5_000, blockTime: NOW }).vault(VAULT, {
  bundle: { assetAddress: USDC, assetDecimals: 6, bundleUnderlyingBalance: 2_074_000_000n, totalShares: 2_000_000_000n, managementFeeBps: 100 }
})

describe("vault series routes", () => {
  layer(gatewayForTest({ state: fixture.state, initial: liveStatus(5_000), history: new Map([[VAULT, rows]]) }), {
    excludeTestServices: true
  })((it) => {
    it.effect("share price: current from the projection; daily closes equal the snapshots', pages by cursor", () =>
      Effect.gen(function*() {
        const url = yield* serverUrl
        const base = `${url}/v2/vault/${VAULT}/share-price`
        const first = yield* fetchJson(`${base}?limit=20`, keyed)
        expect(first.status).toBe(200)
        expect(first.body.asOf.slot).toBe(5_000)
        expect(first.body.data.current).toEqual({ raw: "1037000", token: "1.037" })
        expect(first.body.data.resolution).toBe("day")
        expect(first.body.data.throughDate).toBe("2026-03-09")
        const second = yield* fetchJson(`${base}?limit=20&cursor=${encodeURIComponent(first.body.data.nextCursor)}`, keyed)
        expect(second.body.data.nextCursor).toBeNull()
        const points = [...first.body.data.points, ...second.body.data.points]
        const snapshots = (yield* fetchJson(`${url}/v2/vault/${VAULT}/snapshots?limit=100`, keyed)).body.data.snapshots
        expect(points.map((p: any) => [p.date, p.sharePrice?.raw ?? null, p.event])).toEqual(
          snapshots.map((s: any) => [s.date, s.closingSharePrice, null])
        )
        expect(points[0].sharePrice).toBeNull()
        expect(points[2].sharePrice).toEqual({ raw: "1001000", token: "1.001" })
        const window = yield* fetchJson(`${base}?startDate=2026-02-10&endDate=2026-02-12`, keyed)
        expect(window.body.data.points.map((p: any) => p.date)).toEqual(["2026-02-10", "2026-02-11", "2026-02-12"])
      }))

    it.effect("share price by event: each move once with its event, date filters on block time, cursor pages", () =>
      Effect.gen(function*() {
        const url = yield* serverUrl
        const base = `${url}/v2/vault/${VAULT}/share-price?resolution=event`
        const seen: Array<any> = []
        let cursor: string | null = null
        do {
          const page: any = yield* fetchJson(`${base}&limit=7${cursor === null ? "" : `&cursor=${encodeURIComponent(cursor)}`}`, keyed)
          expect(page.status).toBe(200)
          seen.push(...page.body.data.points)
          cursor = page.body.data.nextCursor
        } while (cursor !== null)
        // 2026-02-03 .. 2026-03-10: a move on each even day index from 2 to 36 (the stand-in's events).
        expect(seen.map((p) => p.sharePrice.raw)).toEqual(Array.from({ length: 18 }, (_, i) => String(1_001_000 + i * 1_000)))
        expect(seen.every((p) => p.event.name === "ChargedFeesToUser" && typeof p.event.signature === "string")).toBe(true)
        const window = yield* fetchJson(`${base}&startDate=2026-02-05&endDate=2026-02-07`, keyed)
        expect(window.body.data.points.map((p: any) => p.date)).toEqual(["2026-02-05", "2026-02-07"])
      }))

    it.effect("metrics history: rows per day with their derivation, pages by cursor", () =>
      Effect.gen(function*() {
        const url = yield* serverUrl
        const base = `${url}/v2/vault/${VAULT}/metrics/history`
        const first = yield* fetchJson(`${base}?limit=30`, keyed)
        expect(first.status).toBe(200)
        const second = yield* fetchJson(`${base}?limit=30&cursor=${encodeURIComponent(first.body.data.nextCursor)}`, keyed)
        const history = [...first.body.data.history, ...second.body.data.history]
        expect(history.map((r: any) => r.date)).toEqual(rows.slice(0, 37).map((r) => r.date))
        expect(history[10]).toMatchObject({ derivation: "backfill", feeSchedule: { managementFeeBps: 100, performanceFeeBps: 0 }, historyDays: 9 })
        expect(history[10].tvl).toEqual({ raw: "2010000000", token: "2010", usd: null })
      }))

    it.effect("bad input is a 400 in the error envelope; an unknown vault a 404", () =>
      Effect.gen(function*() {
        const url = yield* serverUrl
        for (const path of [
          `share-price?resolution=hour`, `share-price?startDate=2026-02-30`, `share-price?startDate=2026-02-10&endDate=2026-02-01`,
          `share-price?limit=0`, `share-price?cursor=forged`, `metrics/history?endDate=yesterday`, `metrics/history?limit=101`,
          `metrics/history?startDate=2026-03-01&endDate=2026-02-01`, `metrics/history?cursor=abc.def`
        ]) {
          const response = yield* fetchJson(`${url}/v2/vault/${VAULT}/${path}`, keyed)
          expect(response.status, path).toBe(400)
          expect(response.body.success, path).toBe(false)
        }
        // A cursor of one resolution is refused by the other.
        const day = yield* fetchJson(`${url}/v2/vault/${VAULT}/share-price?limit=1`, keyed)
        const crossed = yield* fetchJson(`${url}/v2/vault/${VAULT}/share-price?resolution=event&cursor=${encodeURIComponent(day.body.data.nextCursor)}`, keyed)
        expect(crossed.status).toBe(400)
        expect(crossed.body.error).toBe("INVALID_CURSOR")
        const unknown = yield* fetchJson(`${url}/v2/vault/9xQeWvG816bUx9EPjHmaT23yvVM2ZWbrrpZb9PusVFin/share-price`, keyed)
        expect(unknown.status).toBe(404)
        const unkeyed = yield* fetchJson(`${url}/v2/vault/${VAULT}/metrics/history`)
        expect(unkeyed.status).toBe(401)
      }))
  })
})
