import { SqlClient } from "@effect/sql"
import { describe, expect, layer } from "@effect/vitest"
import type { Address } from "@solana/kit"
import { Clock, Duration, Effect, Layer } from "effect"
import { DailyRollupLive } from "../../../layers/postgres/DailyRollupLive.ts"
import { VaultSeriesLive } from "../../../layers/postgres/VaultSeriesLive.ts"
import { HistoryBackfill } from "../../../services/HistoryBackfill.ts"
import { Prices } from "../../../services/Prices.ts"
import { VaultSeries } from "../../../services/VaultSeries.ts"
import type { UsdPrice } from "../../../src/domain/usdPrice.ts"
import { yieldMetrics } from "../../../src/domain/history/yieldMetrics.ts"
import { liveStatus, ProjectionTest } from "../../../src/bench/support/projectionTest.ts"
import { TestDatabase } from "../../../src/bench/support/testDatabase.ts"
import { VaultStateFixture } from "../../../src/bench/support/vaultStateFixture.ts"

const VAULT = "J7qhMAKnB6G5dvoAN9281ufabajKbyGQxxd2bq6R7fPJ" as Address
const USDC = "EPjFWdd5AufqSSqeM2qN1xzybapC8G4wEGGkZwyTDt1v" as Address
const ALICE = "4Nd1mBQtrMJVYVfKf2PJy9NZUZdTAsp7D4xWLs4gDB4T"
const at = (date: string, hour: number) => Date.parse(`${date}T${String(hour).padStart(2, "0")}:00:00Z`) / 1000
let sequence = 0

const insertEvent = (name: string, time: number, data: Record<string, unknown>) =>
  Effect.gen(function*() {
    const sql = yield* SqlClient.SqlClient
    const signature = `sig${String(sequence++).padStart(6, "0")}`
    const slot = sequence * 10
    yield* sql`INSERT INTO chain_transaction ${sql.insert({ signature, slot, block_time: time, failed: false, event_count: name === "" ? 0 : 1 })}`
    if (name !== "") {
      yield* sql`INSERT INTO program_event ${sql.insert({
        signature, event_index: 0, slot, block_time: time, name, raw: new Uint8Array([1]), data: JSON.stringify(data), vault: VAULT, wallet: null
      })}`
    }
  })
/** The chain moved on to `time` (an empty transaction): the log is complete below it. */
const chainReaches = (time: number) => insertEvent("", time, {})

const BackfillDone = Layer.succeed(HistoryBackfill, { progress: Effect.succeed({ state: "done" as const, done: 0, total: 0, oldestBlockTime: null }) })

/** The price the feed shows now (the rollup samples it every tick). */
const feed: { current: UsdPrice | null } = { current: null }
const PricesStandIn = Layer.succeed(Prices, Prices.of({ priceOf: (mint) => (mint === USDC ? feed.current : null) }))

const fixture = new VaultStateFixture({ slot: 10, blockTime: at("2026-02-02", 12) })
const withFees = (managementFeeBps: number, performanceFee: number) =>
  fixture.vault(VAULT, { bundle: { assetAddress: USDC, assetDecimals: 6, managementFeeBps, performanceFee } })

const closedThrough = Effect.gen(function*() {
  const sql = yield* SqlClient.SqlClient
  const rows = yield* sql<{ closed: string | null; covered: string | null }>`
    SELECT to_char(closed_through, 'YYYY-MM-DD') AS closed, covered_through::text AS covered FROM history_rollup`
  return { closed: rows[0]?.closed ?? null, covered: rows[0]?.covered == null ? null : Number(rows[0].covered) }
})

/** Runs `body` while the rollup runs (gateway live since `liveSince`). */
const whileRollingUp = <A, E, R>(liveSince: number, body: Effect.Effect<A, E, R>) =>
  Effect.scoped(
    Effect.gen(function*() {
      yield* Layer.build(
        DailyRollupLive({ interval: Duration.millis(30), provisionalEvery: Duration.zero }).pipe(
          Layer.provide(ProjectionTest({ initial: liveStatus(10, { asOf: { slot: 10, blockTime: liveSince } }), state: fixture.state })),
          Layer.provide(BackfillDone),
          Layer.provide(PricesStandIn)
        )
      )
      return yield* body
    })
  )

const until = <E, R>(what: string, check: Effect.Effect<boolean, E, R>) =>
  Effect.gen(function*() {
    for (let i = 0; i < 300; i++) {
      if (yield* check) return
      yield* Effect.sleep(Duration.millis(30))
    }
    return yield* Effect.die(new Error(`never: ${what}`))
  })
const closed = (date: string) => until(`closed ${date}`, Effect.map(closedThrough, (c) => c.closed !== null && c.closed >= date))
const covered = (time: number) => until(`covered ${time}`, Effect.map(closedThrough, (c) => c.covered !== null && c.covered >= time))

describe("vault series: metrics recorded at each close, close prices, share-price events", () => {
  layer(VaultSeriesLive.pipe(Layer.provideMerge(TestDatabase)), { timeout: 60_000 })((it) => {
    it.effect("records each day's metrics once (backfilled days marked), with the price seen at midnight; a later fee change leaves them", () =>
      Effect.gen(function*() {
        const sql = yield* SqlClient.SqlClient
        yield* sql`INSERT INTO checkpoint (id, genesis_hash, program_id, slot, block_time) VALUES (1, 'genesis', 'program', 1, 0)`
        withFees(100, 2_000)
        const liveSince = at("2026-02-02", 12)
        yield* insertEvent("Allocated", at("2026-02-01", 10), { sharePrice: "1000000", totalShares: "5000000", userSharesBefore: "0", userSharesAfter: "5000000", netAmount: "5000000" })
        yield* insertEvent("ChargedFeesToUser", at("2026-02-01", 11), { user: ALICE, sharePrice: "1000000", totalFeeValue: "3" })
        yield* insertEvent("Redeemed", at("2026-02-01", 12), { sharePrice: "1000500", totalSharesBefore: "5000000", totalSharesAfter: "4000000", grossAmount: "1000500", feeAmount: "0" })
        yield* insertEvent("ChargedFeesToUser", at("2026-02-02", 9), { user: ALICE, sharePrice: "1001000", totalFeeValue: "4" })
        yield* insertEvent("Allocated", at("2026-02-03", 9), { sharePrice: "1002000", totalShares: "4100000", userSharesBefore: "0", userSharesAfter: "100000", netAmount: "100200" })
        // The chain is 100 s before the midnight that ends 02-02; the feed published 40 s before it.
        const beforeMidnight = at("2026-02-03", 0) - 100
        yield* chainReaches(beforeMidnight)
        feed.current = { usd: 0.9998, publishTime: at("2026-02-03", 0) - 40, slot: 77 }

        yield* whileRollingUp(liveSince, Effect.gen(function*() {
          yield* closed("2026-02-01")
          yield* covered(beforeMidnight)
          yield* covered(beforeMidnight) // one more tick has sampled the feed
          yield* Effect.sleep(Duration.millis(100))
          // After midnight the feed moves on; the close keeps the price seen before it.
          feed.current = { usd: 1.0101, publishTime: at("2026-02-03", 5), slot: 99 }
          yield* chainReaches(at("2026-02-03", 6))
          yield* closed("2026-02-02")
          // Nothing sampled near the midnight that ends 02-03 (the last price is from 05:00): no price.
          yield* chainReaches(at("2026-02-04", 1))
          yield* closed("2026-02-03")
        }))

        const series = yield* VaultSeries
        const rows = yield* series.metricsRows({ vault: VAULT, from: null, to: "2026-02-28", after: null, limit: 100 })
        expect(rows.map((row) => [row.date, row.derivation, row.assetUsd, row.closingTvl, row.historyDays])).toEqual([
          // 02-01 ended before the gateway was live: computed from the stored day, no price.
          ["2026-02-01", "backfill", null, 4_002_000n, 1],
          ["2026-02-02", "atClose", 0.9998, 4_004_000n, 2],
          ["2026-02-03", "atClose", null, 4_108_200n, 3]
        ])
        expect(rows.every((row) => row.fees?.managementFeeBps === 100 && row.fees.performanceFeeBps === 2_000)).toBe(true)
        // The figures are those /metrics computes from the closes up to that day.
        const closes = [
          { date: "2026-02-01", sharePrice: 1_000_500n }, { date: "2026-02-02", sharePrice: 1_001_000n }, { date: "2026-02-03", sharePrice: 1_002_000n }
        ]
        const { apyInception, apyInceptionAfterFees, maxDrawdown } = yieldMetrics(closes, { managementFeeBps: 100, performanceFeeBps: 2_000 })
        expect(rows[2]).toMatchObject({ apyInception, apyInceptionAfterFees, maxDrawdown })
        expect(rows[2]!.computedAt).toBeGreaterThanOrEqual(at("2026-02-04", 0))
        const prices = yield* series.closePrices(USDC, "2026-02-01", "2026-02-28")
        expect([...prices]).toEqual([["2026-02-02", { usd: 0.9998, publishTime: at("2026-02-03", 0) - 40, slot: 77 }]])

        // The manager raises the fees; days closed later use them, recorded days stay as they were.
        withFees(500, 3_000)
        yield* insertEvent("ChargedFeesToUser", at("2026-02-04", 9), { user: ALICE, sharePrice: "1003000", totalFeeValue: "9" })
        yield* chainReaches(at("2026-02-05", 1))
        yield* whileRollingUp(liveSince, closed("2026-02-04"))
        const after = yield* series.metricsRows({ vault: VAULT, from: null, to: "2026-02-28", after: null, limit: 100 })
        expect(after.slice(0, 3)).toEqual(rows)
        expect(after[3]).toMatchObject({ date: "2026-02-04", derivation: "atClose", fees: { managementFeeBps: 500, performanceFeeBps: 3_000 } })
        expect(after[3]!.apyInceptionAfterFees).not.toEqual(after[3]!.apyInception)

        // Paged by date: strictly after the cursor's date, within the bounds.
        const page = yield* series.metricsRows({ vault: VAULT, from: "2026-02-02", to: "2026-02-03", after: "2026-02-02", limit: 10 })
        expect(page.map((row) => row.date)).toEqual(["2026-02-03"])

        // Days closed before metrics were recorded (an upgrade): computed once, marked backfill, no price.
        yield* sql`TRUNCATE vault_metrics_daily`
        yield* whileRollingUp(liveSince, until("metrics backfilled", Effect.map(
          series.metricsRows({ vault: VAULT, from: null, to: "2026-02-28", after: null, limit: 100 }),
          (rows) => rows.length === 4
        )))
        const rebuilt = yield* series.metricsRows({ vault: VAULT, from: null, to: "2026-02-28", after: null, limit: 100 })
        expect(rebuilt.map((row) => [row.date, row.derivation, row.assetUsd, row.fees?.managementFeeBps])).toEqual([
          ["2026-02-01", "backfill", null, 500],
          ["2026-02-02", "backfill", null, 500],
          ["2026-02-03", "backfill", null, 500],
          ["2026-02-04", "backfill", null, 500]
        ])

        // Event resolution: the events that moved the price (the fee charge at an unchanged price is left out).
        const all = yield* series.sharePriceEvents({ vault: VAULT, from: null, below: null, after: null, limit: 100 })
        expect(all.events.map((event) => [event.name, event.sharePrice])).toEqual([
          ["Allocated", 1_000_000n], ["Redeemed", 1_000_500n], ["ChargedFeesToUser", 1_001_000n], ["Allocated", 1_002_000n], ["ChargedFeesToUser", 1_003_000n]
        ])
        expect(all.more).toBe(false)
        const first = yield* series.sharePriceEvents({ vault: VAULT, from: null, below: null, after: null, limit: 2 })
        expect(first.more).toBe(true)
        const second = yield* series.sharePriceEvents({ vault: VAULT, from: null, below: null, after: first.events[1]!, limit: 2 })
        expect(second.events.map((event) => event.sharePrice)).toEqual([1_001_000n, 1_002_000n])
        // A window: compared with the price before it; `below` exclusive.
        const window = yield* series.sharePriceEvents({ vault: VAULT, from: at("2026-02-01", 11), below: at("2026-02-03", 9), after: null, limit: 10 })
        expect(window.events.map((event) => event.sharePrice)).toEqual([1_000_500n, 1_001_000n])
      }).pipe(Effect.withClock(Clock.make())))
  })
})
