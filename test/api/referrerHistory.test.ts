import { describe, expect, layer } from "@effect/vitest"
import type { Address } from "@solana/kit"
import { Effect } from "effect"
import { LegacyFlag } from "../../src/domain/history/legacyFlags.ts"
import type { ReferrerDailyRow } from "../../src/domain/history/referrerDailyRow.ts"
import { fetchJson } from "../support/httpFetch.ts"
import { gatewayClient, gatewayForTest, serverUrl } from "../../src/bench/support/httpTestServer.ts"
import { TEST_PARTNER_KEY } from "../../src/bench/support/partnerKeyStandIn.ts"
import { ProjectionControl, liveStatus, startingStatus } from "../../src/bench/support/projectionTest.ts"
import { ReferrerHistoryStandIn } from "../../src/bench/support/referrerHistoryStandIn.ts"
import { VaultStateFixture } from "../../src/bench/support/vaultStateFixture.ts"

const keyed = { headers: { "x-api-key": TEST_PARTNER_KEY } }
const VAULT_A = "J7qhMAKnB6G5dvoAN9281ufabajKbyGQxxd2bq6R7fPJ" as Address
const VAULT_B = "4Nd1mBQtrMJVYVfKf2PJy9NZUZdTAsp7D4xWLs4gDB4T" as Address
const USDC = "EPjFWdd5AufqSSqeM2qN1xzybapC8G4wEGGkZwyTDt1v" as Address
const BUILDER = "9xQeWvG816bUx9EPjHmaT23yvVM2ZWbrrpZb9PusVFin" as Address
// Chain time 2026-03-10 12:00 UTC: the last completed day is 2026-03-09.
const NOW = Date.UTC(2026, 2, 10, 12) / 1000

const row = (date: string, vault: string, overrides: Partial<ReferrerDailyRow> = {}): ReferrerDailyRow => ({
  date,
  referrer: BUILDER,
  vault,
  mfeeShares: 3_000_000n,
  pfeeShares: 0n,
  closingSharePrice: 1_050_000n,
  cohortShares: 2_000_000_000n,
  flowsIn: 5_000_000n,
  flowsOut: 0n,
  attributedUsers: 4,
  referredNetDeposits: -1_500_000n,
  legacyFlags: 0,
  partialThrough: null,
  ...overrides
})

// 03-05 and 03-07: both vaults; 03-06: vault A only; 03-09: vault B. Today (03-10) is provisional.
const rows = [
  row("2026-03-05", VAULT_A, { legacyFlags: LegacyFlag.reconstructed | LegacyFlag.referredNetDepositsUntracked }),
  row("2026-03-05", VAULT_B),
  row("2026-03-06", VAULT_A),
  row("2026-03-07", VAULT_A),
  row("2026-03-07", VAULT_B),
  row("2026-03-09", VAULT_B),
  row("2026-03-10", VAULT_A, { partialThrough: NOW - 7, mfeeShares: 1n })
]

const fixture = new VaultStateFixture({ slot: 5_000, blockTime: NOW })
  .vault(VAULT_A, { bundle: { assetAddress: USDC, totalShares: 1n } })
  .vault(VAULT_B, { bundle: { assetAddress: USDC, totalShares: 1n } })

const asOfNow = liveStatus(5_000, { asOf: { slot: 5_000, blockTime: NOW } })

describe("GET /v2/referrer/{address}/history", () => {
  layer(gatewayForTest({ state: fixture.state, initial: asOfNow, referrerHistory: ReferrerHistoryStandIn(rows) }), {
    excludeTestServices: true
  })((it) => {
    it.effect("completed days oldest first, values at the closing price, legacy flags; pages keep dates whole", () =>
      Effect.gen(function*() {
        const client = yield* gatewayClient
        const first = yield* client.referrerHistory.history({ path: { address: BUILDER }, urlParams: { limit: 3 } })
        expect(first.data.throughDate).toBe("2026-03-09")
        // 03-05 (2 rows, by vault address: B's sorts first) and 03-06 fill the page; 03-07 starts the next one.
        expect(first.data.history.map((r) => `${r.date}/${r.vault === VAULT_A ? "A" : "B"}`)).toEqual(["2026-03-05/B", "2026-03-05/A", "2026-03-06/A"])
        expect(first.data.history[1]).toEqual({
          date: "2026-03-05",
          vault: VAULT_A,
          partial: false,
          partialThrough: null,
          earnings: { mfeeShares: "3000000", pfeeShares: "0", totalShares: "3000000", value: { raw: "3150000", token: "3.15", usd: null } },
          closingSharePrice: "1050000",
          attributedShares: "2000000000",
          attributedTvl: { raw: "2100000000", token: "2100", usd: null },
          flowsIn: { raw: "5000000", token: "5" },
          flowsOut: { raw: "0", token: "0" },
          attributedUsers: 4,
          referredNetDeposits: { raw: "-1500000", token: "-1.5" },
          legacyFlags: ["reconstructed", "referredNetDepositsUntracked"]
        })
        // A page of 1 cannot split 03-07 (two vaults): it carries the date whole.
        const second = yield* client.referrerHistory.history({ path: { address: BUILDER }, urlParams: { limit: 1, cursor: first.data.nextCursor! } })
        expect(second.data.history.map((r) => r.date)).toEqual(["2026-03-07", "2026-03-07"])
        const third = yield* client.referrerHistory.history({ path: { address: BUILDER }, urlParams: { limit: 1, cursor: second.data.nextCursor! } })
        expect(third.data.history.map((r) => r.date)).toEqual(["2026-03-09"])
        expect(third.data.nextCursor).toBeNull()
      }))

    it.effect("includePartial adds today's provisional row after the last page only; filters by vault and dates", () =>
      Effect.gen(function*() {
        const client = yield* gatewayClient
        const all = yield* client.referrerHistory.history({ path: { address: BUILDER }, urlParams: { includePartial: true } })
        const last = all.data.history[all.data.history.length - 1]!
        expect(last).toMatchObject({ date: "2026-03-10", partial: true, partialThrough: NOW - 7, earnings: { mfeeShares: "1" } })
        expect(all.data.history.filter((r) => r.partial)).toHaveLength(1)
        const paged = yield* client.referrerHistory.history({ path: { address: BUILDER }, urlParams: { includePartial: true, limit: 2 } })
        expect(paged.data.history.some((r) => r.partial)).toBe(false)
        const onlyB = yield* client.referrerHistory.history({ path: { address: BUILDER }, urlParams: { vault: VAULT_B, startDate: "2026-03-06", endDate: "2026-03-09" } })
        expect(onlyB.data.history.map((r) => r.date)).toEqual(["2026-03-07", "2026-03-09"])
        const window = yield* client.referrerHistory.history({ path: { address: BUILDER }, urlParams: { startDate: "2026-03-06", endDate: "2026-03-06", includePartial: true } })
        expect(window.data.history.map((r) => r.date)).toEqual(["2026-03-06"])
      }))

    it.effect("reversed or malformed dates, bad limits, unknown vaults and tampered or foreign cursors are refused", () =>
      Effect.gen(function*() {
        const url = yield* serverUrl
        const base = `${url}/v2/referrer/${BUILDER}/history`
        const reversed = yield* fetchJson(`${base}?startDate=2026-03-08&endDate=2026-03-07`, keyed)
        expect(reversed.status).toBe(400)
        expect(reversed.body).toMatchObject({ success: false, error: "INVALID_QUERY" })
        for (const query of ["startDate=2026-02-30", "startDate=2026-13-01", "endDate=2026-00-10", "endDate=today", "limit=0", "limit=101", "includePartial=maybe"]) {
          const response = yield* fetchJson(`${base}?${query}`, keyed)
          expect(response.status, query).toBe(400)
          expect(response.body.success).toBe(false)
        }
        // The vault snapshots refuse a reversed range the same way.
        const snapshots = yield* fetchJson(`${url}/v2/vault/${VAULT_A}/snapshots?startDate=2026-03-08&endDate=2026-03-07`, keyed)
        expect(snapshots.status).toBe(400)
        expect(snapshots.body.error).toBe("INVALID_QUERY")
        const unknownVault = yield* fetchJson(`${base}?vault=11111111111111111111111111111112`, keyed)
        expect(unknownVault.status).toBe(404)
        const page = yield* fetchJson(`${base}?limit=1`, keyed)
        const cursor: string = page.body.data.nextCursor
        const tampered = cursor.slice(0, 3) + (cursor[3] === "A" ? "B" : "A") + cursor.slice(4)
        for (const [bad, query] of [[tampered, "limit=1"], ["garbage", "limit=1"], [cursor, "limit=1&vault=" + VAULT_A], [cursor, "limit=1&includePartial=true"]]) {
          const response = yield* fetchJson(`${base}?${query}&cursor=${encodeURIComponent(bad!)}`, keyed)
          expect(response.status, `${query}`).toBe(400)
          expect(response.body.error).toBe("INVALID_CURSOR")
        }
        // A cursor of another referrer's listing is foreign too.
        const other = yield* fetchJson(`${url}/v2/referrer/${VAULT_B}/history?limit=1&cursor=${encodeURIComponent(cursor)}`, keyed)
        expect(other.body.error).toBe("INVALID_CURSOR")
      }))

    it.effect("503 with Retry-After while the projection is not live: no empty list", () =>
      Effect.gen(function*() {
        const control = yield* ProjectionControl
        const url = yield* serverUrl
        yield* control.setStatus(startingStatus)
        const response = yield* fetchJson(`${url}/v2/referrer/${BUILDER}/history`, keyed)
        yield* control.setStatus(asOfNow)
        expect(response.status).toBe(503)
        expect(response.headers.get("retry-after")).toBeDefined()
        expect(response.body.data).toBeUndefined()
      }))
  })

  // The days up to 03-09 are not all stored yet (the backfill or the day's close is still running).
  layer(gatewayForTest({
    state: fixture.state,
    initial: asOfNow,
    referrerHistory: ReferrerHistoryStandIn(rows, { closedThrough: "2026-03-06", coveredThrough: null })
  }), { excludeTestServices: true })((it) => {
    it.effect("503 with Retry-After while the requested days are not stored; days already stored are served", () =>
      Effect.gen(function*() {
        const url = yield* serverUrl
        const pending = yield* fetchJson(`${url}/v2/referrer/${BUILDER}/history`, keyed)
        expect(pending.status).toBe(503)
        expect(pending.headers.get("retry-after")).toBe("30")
        expect(pending.body).toMatchObject({ success: false, error: "PROJECTION_UNAVAILABLE" })
        const stored = yield* fetchJson(`${url}/v2/referrer/${BUILDER}/history?endDate=2026-03-06`, keyed)
        expect(stored.status).toBe(200)
        expect(stored.body.data.history.map((r: { date: string }) => r.date)).toEqual(["2026-03-05", "2026-03-05", "2026-03-06"])
        const none = yield* fetchJson(`${url}/v2/referrer/${BUILDER}/history`, keyed)
        expect(none.status).toBe(503)
        // The vault snapshots and metrics wait for the stored days the same way.
        const snapshots = yield* fetchJson(`${url}/v2/vault/${VAULT_A}/snapshots`, keyed)
        expect(snapshots.status).toBe(503)
        expect(snapshots.headers.get("retry-after")).toBe("30")
        expect((yield* fetchJson(`${url}/v2/vault/${VAULT_A}/metrics`, keyed)).status).toBe(503)
        expect((yield* fetchJson(`${url}/v2/vault/${VAULT_A}/snapshots?endDate=2026-03-06`, keyed)).status).toBe(200)
      }))
  })

  layer(gatewayForTest({
    state: fixture.state,
    initial: asOfNow,
    referrerHistory: ReferrerHistoryStandIn([], { closedThrough: null, coveredThrough: null })
  }), { excludeTestServices: true })((it) => {
    it.effect("503 while no day is stored at all (the history backfill is running)", () =>
      Effect.gen(function*() {
        const url = yield* serverUrl
        const response = yield* fetchJson(`${url}/v2/referrer/${BUILDER}/history?includePartial=true`, keyed)
        expect(response.status).toBe(503)
        expect(response.body.message).toContain("backfill")
        // Only today asked for: its provisional rows are not stored either.
        const today = yield* fetchJson(`${url}/v2/referrer/${BUILDER}/history?includePartial=true&startDate=2026-03-10`, keyed)
        expect(today.status).toBe(503)
      }))
  })
})
