import { SqlClient } from "@effect/sql"
import { describe, expect, layer } from "@effect/vitest"
import { Clock, Duration, Effect, Layer } from "effect"
import { DailyRollupLive } from "../../../layers/postgres/DailyRollupLive.ts"
import { ReferrerHistoryLive } from "../../../layers/postgres/ReferrerHistoryLive.ts"
import { VaultHistoryLive } from "../../../layers/postgres/VaultHistoryLive.ts"
import { HistoryBackfill } from "../../../services/HistoryBackfill.ts"
import { ReferrerHistory } from "../../../services/ReferrerHistory.ts"
import { VaultHistory } from "../../../services/VaultHistory.ts"
import { LegacyFlag } from "../../../src/domain/history/legacyFlags.ts"
import { liveStatus, ProjectionTest } from "../../../src/bench/support/projectionTest.ts"
import { TestDatabase } from "../../../src/bench/support/testDatabase.ts"

const VAULT = "J7qhMAKnB6G5dvoAN9281ufabajKbyGQxxd2bq6R7fPJ"
const BUILDER = "9xQeWvG816bUx9EPjHmaT23yvVM2ZWbrrpZb9PusVFin"
const ALICE = "4Nd1mBQtrMJVYVfKf2PJy9NZUZdTAsp7D4xWLs4gDB4T"
const at = (date: string, hour: number) => Date.parse(`${date}T${String(hour).padStart(2, "0")}:00:00Z`) / 1000
let sequence = 0

const insertTransaction = (time: number, events: ReadonlyArray<{ name: string; data: Record<string, unknown>; vault?: string | null }>) =>
  Effect.gen(function*() {
    const sql = yield* SqlClient.SqlClient
    const signature = `sig${String(sequence++).padStart(6, "0")}`
    const slot = sequence * 10
    yield* sql`INSERT INTO chain_transaction ${sql.insert({ signature, slot, block_time: time, failed: false, event_count: events.length })}`
    for (const [index, event] of events.entries()) {
      yield* sql`INSERT INTO program_event ${sql.insert({
        signature, event_index: index, slot, block_time: time, name: event.name, raw: new Uint8Array([1]),
        data: JSON.stringify(event.data), vault: event.vault === undefined ? VAULT : event.vault, wallet: null
      })}`
    }
  })
const insertEvent = (name: string, date: string, hour: number, data: Record<string, unknown>, vault: string | null = VAULT) =>
  insertTransaction(at(date, hour), [{ name, data, vault }])

/** The checkpoint names the chain the log belongs to (its block time stays out of the way). */
const checkpointOf = (genesis: string) =>
  Effect.flatMap(SqlClient.SqlClient, (sql) => sql`
    INSERT INTO checkpoint (id, genesis_hash, program_id, slot, block_time) VALUES (1, ${genesis}, 'program', 1, 0)
    ON CONFLICT (id) DO UPDATE SET genesis_hash = EXCLUDED.genesis_hash`)

/** The chain moved on to `time` (an empty transaction): the log is complete below it. */
const chainReaches = (time: number) => insertTransaction(time, [])

const BackfillDone = Layer.succeed(HistoryBackfill, { progress: Effect.succeed({ state: "done" as const, done: 0, total: 0, oldestBlockTime: null }) })

/** Runs the rollup (gateway live since `liveSince`) until it has closed `date`, then stops it. */
const rollUpThrough = (date: string, liveSince: number) =>
  Effect.gen(function*() {
    const sql = yield* SqlClient.SqlClient
    const rollup = DailyRollupLive({ interval: Duration.millis(30), provisionalEvery: Duration.zero }).pipe(
      Layer.provide(ProjectionTest({ initial: liveStatus(10, { asOf: { slot: 10, blockTime: liveSince } }) })),
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

describe("history rollup: stored daily vault and builder rows", () => {
  layer(Layer.mergeAll(VaultHistoryLive, ReferrerHistoryLive).pipe(Layer.provideMerge(TestDatabase)), { timeout: 60_000 })((it) => {
    it.effect("closes days from the event log once, carries closes over empty days, keeps flags; reads come from the tables", () =>
      Effect.gen(function*() {
        const sql = yield* SqlClient.SqlClient
        yield* checkpointOf("genesisA")
        yield* insertEvent("DepositRequested", "2026-02-01", 9, { user: ALICE, grossAmount: "1000000", feeAmount: "1000", netAmount: "999000" })
        yield* insertEvent("UserReferrerSet", "2026-02-01", 9, { user: ALICE, referrer: BUILDER })
        yield* insertEvent("Allocated", "2026-02-01", 10, {
          netAmount: "999000", sharePrice: "1000000", totalShares: "999000", userSharesBefore: "0", userSharesAfter: "999000",
          referredNetDepositsAfter: "999000"
        })
        yield* insertEvent("ChargedFeesToUser", "2026-02-01", 23, { user: ALICE, sharePrice: "1000500", totalFeeValue: "7", userSharesAfter: "998993" })
        yield* insertEvent("ReferralFeesAccrued", "2026-02-01", 23, { referrer: BUILDER, referrerMfeeShares: "2", referrerPfeeShares: "0" })
        // 2026-02-02: nothing. 2026-02-03: a withdrawal of shares that are not the builder's user's.
        yield* insertEvent("Redeemed", "2026-02-03", 1, {
          sharePrice: "1002000", totalSharesAfter: "500000", grossAmount: "501000", feeAmount: "1500",
          userSharesBefore: "1000", userSharesAfter: "0", referredNetDepositsAfter: null
        })
        yield* insertEvent("Allocated", "2026-02-03", 2, { sharePrice: "9" }, "OtherVault1111111111111111111111111111111111")
        yield* chainReaches(at("2026-02-05", 6))
        // Live since 2026-02-02 12:00: the days before and including it are rebuilt from the log.
        yield* rollUpThrough("2026-02-04", at("2026-02-02", 12))

        const history = yield* VaultHistory
        const rows = yield* history.dailyRows({ vault: VAULT, from: null, to: "2026-02-10", after: null, limit: 100 })
        expect(rows).toEqual([
          {
            date: "2026-02-01", closingSharePrice: 1_000_500n, closingTotalShares: 999_000n, depositsRequested: 1_000_000n,
            depositFees: 1_000n, withdrawalsPaid: 0n, withdrawalFees: 0n, feesCharged: 7n, events: 5
          },
          {
            date: "2026-02-02", closingSharePrice: 1_000_500n, closingTotalShares: 999_000n, depositsRequested: 0n,
            depositFees: 0n, withdrawalsPaid: 0n, withdrawalFees: 0n, feesCharged: 0n, events: 0
          },
          {
            date: "2026-02-03", closingSharePrice: 1_002_000n, closingTotalShares: 500_000n, depositsRequested: 0n,
            depositFees: 0n, withdrawalsPaid: 501_000n, withdrawalFees: 1_500n, feesCharged: 0n, events: 1
          },
          {
            date: "2026-02-04", closingSharePrice: 1_002_000n, closingTotalShares: 500_000n, depositsRequested: 0n,
            depositFees: 0n, withdrawalsPaid: 0n, withdrawalFees: 0n, feesCharged: 0n, events: 0
          }
        ])
        const page = yield* history.dailyRows({ vault: VAULT, from: "2026-02-02", to: "2026-02-03", after: "2026-02-02", limit: 10 })
        expect(page.map((row) => row.date)).toEqual(["2026-02-03"])
        const none = yield* history.dailyRows({ vault: "NoEvents111111111111111111111111111111111111", from: null, to: "2026-02-04", after: null, limit: 10 })
        expect(none).toEqual([])
        // Capital flows: processed deposits net of fees in, processed withdrawals gross out (requests are not capital).
        const flows = yield* history.capitalFlows
        expect(flows.byVault.get(VAULT)).toEqual({ deposited: 999_000n, withdrawn: 501_000n })
        expect(flows.byVault.get("OtherVault1111111111111111111111111111111111")).toEqual({ deposited: 0n, withdrawn: 0n })
        expect(flows.complete).toBe(false)
        yield* sql`INSERT INTO history_backfill (id, finished) VALUES (1, true) ON CONFLICT (id) DO UPDATE SET finished = true`
        expect((yield* history.capitalFlows).complete).toBe(true)

        // The builder's rows: earnings on 02-01, cohort and counter carried forward.
        const referrers = yield* ReferrerHistory
        const builderDays = yield* referrers.completedDays({ referrer: BUILDER, vault: null, from: null, to: "2026-02-10", after: null, limit: 100 })
        expect(builderDays.more).toBe(false)
        expect(builderDays.rows.map((row) => [row.date, row.mfeeShares, row.cohortShares, row.referredNetDeposits, row.attributedUsers, row.legacyFlags]))
          .toEqual([
            ["2026-02-01", 2n, 998_993n, 999_000n, 1, LegacyFlag.reconstructed],
            ["2026-02-02", 0n, 998_993n, 999_000n, 1, LegacyFlag.reconstructed],
            ["2026-02-03", 0n, 998_993n, 999_000n, 1, 0],
            ["2026-02-04", 0n, 998_993n, 999_000n, 1, 0]
          ])
        // Today's (02-05) provisional rows cover the chain up to the stored time.
        const provisional = yield* referrers.provisional(BUILDER, null)
        expect(provisional.map((row) => [row.date, row.partialThrough])).toEqual([["2026-02-05", at("2026-02-05", 6)]])
        expect(yield* referrers.coverage).toEqual({ closedThrough: "2026-02-04", coveredThrough: at("2026-02-05", 6) })

        // A completed day closes once: a second run (a restart) leaves stored values and added flags as they are.
        yield* sql`UPDATE vault_daily SET events = 99 WHERE vault = ${VAULT} AND day = '2026-02-03'`
        yield* sql`UPDATE referrer_daily SET legacy_flags = legacy_flags | ${LegacyFlag.referredNetDepositsUntracked} WHERE day = '2026-02-04'`
        yield* insertEvent("ReferralFeesAccrued", "2026-02-05", 7, { referrer: BUILDER, referrerMfeeShares: "5", referrerPfeeShares: "1" })
        yield* chainReaches(at("2026-02-06", 1))
        yield* rollUpThrough("2026-02-05", at("2026-02-20", 0))
        const again = yield* history.dailyRows({ vault: VAULT, from: "2026-02-03", to: "2026-02-05", after: null, limit: 10 })
        expect(again.map((row) => [row.date, row.events])).toEqual([["2026-02-03", 99], ["2026-02-04", 0], ["2026-02-05", 1]])
        const later = yield* referrers.completedDays({ referrer: BUILDER, vault: null, from: "2026-02-04", to: "2026-02-10", after: null, limit: 100 })
        expect(later.rows.map((row) => [row.date, row.mfeeShares, row.pfeeShares, row.legacyFlags])).toEqual([
          // live_since is set once: the second run's later "live" time does not re-mean the first.
          ["2026-02-04", 0n, 0n, LegacyFlag.referredNetDepositsUntracked],
          ["2026-02-05", 5n, 1n, 0]
        ])
        const stored = yield* sql<{ n: number }>`SELECT count(*)::int AS n FROM referrer_daily WHERE referrer = ${BUILDER}`
        // 02-01 .. 02-05 completed, 02-06 provisional: each once.
        expect(stored[0]!.n).toBe(6)

        // The gateway meets another chain: the event log is discarded, and the daily rows go with it.
        yield* sql`TRUNCATE checkpoint, program_event, chain_transaction`
        yield* checkpointOf("genesisB")
        yield* insertEvent("ReferralFeesAccrued", "2026-03-01", 7, { referrer: BUILDER, referrerMfeeShares: "9", referrerPfeeShares: "0" })
        yield* chainReaches(at("2026-03-02", 1))
        yield* rollUpThrough("2026-03-01", at("2026-03-01", 0))
        const other = yield* referrers.completedDays({ referrer: BUILDER, vault: null, from: null, to: "2026-03-31", after: null, limit: 100 })
        expect(other.rows.map((row) => [row.date, row.mfeeShares, row.legacyFlags])).toEqual([["2026-03-01", 9n, 0]])
        expect(yield* history.dailyRows({ vault: VAULT, from: null, to: "2026-02-28", after: null, limit: 10 })).toEqual([])
      }).pipe(Effect.withClock(Clock.make())))

    it.effect("pages by date without splitting one across pages", () =>
      Effect.gen(function*() {
        const sql = yield* SqlClient.SqlClient
        const referrer = "Pager1111111111111111111111111111111111111111"
        const row = (day: string, vault: string) => ({
          referrer, day, vault, mfee_shares: "1", pfee_shares: "0", closing_share_price: null, cohort_shares: "0",
          flows_in: "0", flows_out: "0", attributed_users: 0, referred_net_deposits: "-5", legacy_flags: 0, partial: false, partial_through: null
        })
        yield* sql`INSERT INTO referrer_daily ${sql.insert([
          row("2026-01-01", "V1"), row("2026-01-02", "V1"), row("2026-01-02", "V2"), row("2026-01-02", "V3"), row("2026-01-03", "V1")
        ])}`
        const referrers = yield* ReferrerHistory
        const query = { referrer, vault: null, from: null, to: "2026-01-31", limit: 2 }
        const first = yield* referrers.completedDays({ ...query, after: null })
        expect(first.rows.map((r) => r.date)).toEqual(["2026-01-01"])
        expect(first.more).toBe(true)
        // 01-02 alone has three rows: a page of 2 still carries it whole.
        const second = yield* referrers.completedDays({ ...query, after: "2026-01-01" })
        expect(second.rows.map((r) => `${r.date}/${r.vault}`)).toEqual(["2026-01-02/V1", "2026-01-02/V2", "2026-01-02/V3"])
        expect(second.more).toBe(true)
        const third = yield* referrers.completedDays({ ...query, after: "2026-01-02" })
        expect(third.rows.map((r) => [r.date, r.referredNetDeposits])).toEqual([["2026-01-03", -5n]])
        expect(third.more).toBe(false)
      }))
  })
})
