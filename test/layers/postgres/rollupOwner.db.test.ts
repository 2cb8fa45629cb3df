import { SqlClient } from "@effect/sql"
import { describe, expect, layer } from "@effect/vitest"
import { Clock, Duration, Effect, Layer } from "effect"
import { DailyRollupLive } from "../../../layers/postgres/DailyRollupLive.ts"
import { HistoryBackfill } from "../../../services/HistoryBackfill.ts"
import { liveStatus, ProjectionTest } from "../../../src/bench/support/projectionTest.ts"
import { TestDatabase } from "../../../src/bench/support/testDatabase.ts"

const VAULT = "J7qhMAKnB6G5dvoAN9281ufabajKbyGQxxd2bq6R7fPJ"
const ALICE_BUILDER = "9xQeWvG816bUx9EPjHmaT23yvVM2ZWbrrpZb9PusVFin"
const BOB_BUILDER = "BPFLoaderUpgradeab1e11111111111111111111111"
const ALICE = "4Nd1mBQtrMJVYVfKf2PJy9NZUZdTAsp7D4xWLs4gDB4T"
const BOB = "7Np41oeYqPefeNQEHSv1UDhYrehxin3NStELsSKCT4K2"
/** `Allocated.from`: the vault's pending-deposit token account (what rows before migration 0011 hold as wallet). */
const PENDING_TOKENS = "EPjFWdd5AufqSSqeM2qN1xzybapC8G4wEGGkZwyTDt1v"
const at = (date: string, hour: number) => Date.parse(`${date}T${String(hour).padStart(2, "0")}:00:00Z`) / 1000
let sequence = 0

interface Logged {
  readonly name: string
  readonly data: Record<string, unknown>
  readonly wallet: string | null
}

const insertTransaction = (time: number, events: ReadonlyArray<Logged>) =>
  Effect.gen(function*() {
    const sql = yield* SqlClient.SqlClient
    const signature = `sig${String(sequence++).padStart(6, "0")}`
    const slot = sequence * 10
    yield* sql`INSERT INTO chain_transaction ${sql.insert({ signature, slot, block_time: time, failed: false, event_count: events.length })}`
    for (const [index, event] of events.entries()) {
      yield* sql`INSERT INTO program_event ${sql.insert({
        signature, event_index: index, slot, block_time: time, name: event.name, raw: new Uint8Array([1]),
        data: JSON.stringify({ bundleAccountKey: VAULT, ...event.data }), vault: VAULT, wallet: event.wallet
      })}`
    }
  })

const allocation = (wallet: string) => ({
  name: "Allocated",
  wallet,
  data: {
    from: PENDING_TOKENS, amount: "500", netAmount: "500", sharePrice: "1000000", userSharesBefore: "0", userSharesAfter: "500",
    totalShares: "500", referredNetDepositsAfter: "500"
  }
})

const BackfillDone = Layer.succeed(HistoryBackfill, { progress: Effect.succeed({ state: "done" as const, done: 0, total: 0, oldestBlockTime: null }) })

/** Runs the rollup until it has closed `date`, then stops it. */
const rollUpThrough = (date: string) =>
  Effect.gen(function*() {
    const sql = yield* SqlClient.SqlClient
    const rollup = DailyRollupLive({ interval: Duration.millis(30), provisionalEvery: Duration.zero }).pipe(
      Layer.provide(ProjectionTest({ initial: liveStatus(10, { asOf: { slot: 10, blockTime: at("2026-02-10", 0) } }) })),
      Layer.provide(BackfillDone)
    )
    yield* Effect.scoped(
      Effect.gen(function*() {
        yield* Layer.build(rollup)
        for (let i = 0; i < 300; i++) {
          const rows = yield* sql<{ closed: string | null }>`SELECT to_char(closed_through, 'YYYY-MM-DD') AS closed FROM history_rollup`
          if (rows[0]?.closed != null && rows[0].closed >= date) return
          yield* Effect.sleep(Duration.millis(30))
        }
        return yield* Effect.die(new Error(`the rollup never closed ${date}`))
      })
    )
  })

describe("history rollup: allocations attributed by the stored position owner", () => {
  layer(TestDatabase, { timeout: 60_000 })((it) => {
    it.effect("an Allocated row's wallet picks the owner among identical pendings; an old row (wallet = from) falls back to amounts", () =>
      Effect.gen(function*() {
        const sql = yield* SqlClient.SqlClient
        yield* sql`INSERT INTO checkpoint (id, genesis_hash, program_id, slot, block_time) VALUES (1, 'genesis', 'program', 1, 0)`
        yield* insertTransaction(at("2026-02-01", 8), [
          { name: "UserReferrerSet", wallet: ALICE, data: { user: ALICE, referrer: ALICE_BUILDER } },
          { name: "UserReferrerSet", wallet: BOB, data: { user: BOB, referrer: BOB_BUILDER } }
        ])
        // Alice first in line: the amount match alone would give her Bob's allocation.
        yield* insertTransaction(at("2026-02-01", 9), [
          { name: "DepositRequested", wallet: ALICE, data: { user: ALICE, grossAmount: "500", feeAmount: "0", netAmount: "500" } },
          { name: "DepositRequested", wallet: BOB, data: { user: BOB, grossAmount: "500", feeAmount: "0", netAmount: "500" } }
        ])
        yield* insertTransaction(at("2026-02-01", 10), [allocation(BOB)])
        // A row written before the owner was stored: its wallet is `from`. Only Alice still pends 500.
        yield* insertTransaction(at("2026-02-02", 10), [allocation(PENDING_TOKENS)])
        yield* insertTransaction(at("2026-02-03", 1), [])
        yield* rollUpThrough("2026-02-02")

        const rows = yield* sql<{ referrer: string; day: string; cohort_shares: string; flows_in: string; referred_net_deposits: string }>`
          SELECT referrer, to_char(day, 'YYYY-MM-DD') AS day, cohort_shares::text, flows_in::text, referred_net_deposits::text
          FROM referrer_daily WHERE NOT partial ORDER BY day, referrer = ${ALICE_BUILDER} DESC`
        expect(rows.map((row) => [row.day, row.referrer, row.cohort_shares, row.flows_in, row.referred_net_deposits])).toEqual([
          ["2026-02-01", ALICE_BUILDER, "0", "0", "0"],
          ["2026-02-01", BOB_BUILDER, "500", "500", "500"],
          ["2026-02-02", ALICE_BUILDER, "500", "500", "500"],
          ["2026-02-02", BOB_BUILDER, "500", "0", "500"]
        ])
        // The rollup sleeps between ticks: a real clock, not the test's.
      }).pipe(Effect.withClock(Clock.make())))
  })
})
