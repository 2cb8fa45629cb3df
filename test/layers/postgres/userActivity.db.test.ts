import { SqlClient } from "@effect/sql"
import { describe, expect, layer } from "@effect/vitest"
import { Effect, Layer } from "effect"
import { UserActivityLive } from "../../../layers/postgres/UserActivityLive.ts"
import { UserActivity } from "../../../services/UserActivity.ts"
import { TestDatabase } from "../../../src/bench/support/testDatabase.ts"

const VAULT = "J7qhMAKnB6G5dvoAN9281ufabajKbyGQxxd2bq6R7fPJ"
const OTHER_VAULT = "nE1x7KQq2sm3GQrafQUUdBkSPPT52FmiMM9qAS1dgnC"
const THIRD_VAULT = "BUNDeH5A4c47bcEoAjBhN3sCjLgYnRsmt9ibMztqVkC9"
const WALLET = "Es9vMFrzaCERmJfrF4H2FYD4KCoNkY11McCe8BenwNYB"
const OTHER = "7vfCXTUXx5WJV5JADk17DUJ4ksgau7utNKj4b963voxs"
const DAY = 86_400
const T0 = Date.parse("2026-10-01T00:00:00Z") / 1000

const put = (signature: string, slot: number, time: number, events: ReadonlyArray<{ name: string; vault: string | null; wallet: string; data?: Record<string, unknown> }>) =>
  Effect.gen(function*() {
    const sql = yield* SqlClient.SqlClient
    yield* sql`INSERT INTO chain_transaction ${sql.insert({ signature, slot, block_time: time, failed: false, event_count: events.length })}`
    yield* sql`INSERT INTO program_event ${sql.insert(events.map((event, index) => ({
      signature, event_index: index, slot, block_time: time, name: event.name, raw: new Uint8Array([1]),
      data: JSON.stringify(event.data ?? {}), vault: event.vault, wallet: event.wallet
    })))}`
  })

const keys = (events: ReadonlyArray<{ signature: string; eventIndex: number }>) => events.map((e) => `${e.signature}:${e.eventIndex}`)

describe("UserActivityLive", () => {
  layer(UserActivityLive.pipe(Layer.provideMerge(TestDatabase)), { timeout: 60_000 })((it) => {
    it.effect("pages newest first by keyset, per vault with switches, by day; windows, the events before a time, span, vaults", () =>
      Effect.gen(function*() {
        const log = yield* UserActivity
        const sql = yield* SqlClient.SqlClient
        expect(yield* log.complete).toBe(false)
        // two transactions in one slot: ordered by signature (the log keeps no in-block index)
        yield* put("b-sig", 10, T0 + 100, [{ name: "DepositRequested", vault: VAULT, wallet: WALLET }, { name: "UserReferrerSet", vault: VAULT, wallet: WALLET }])
        yield* put("a-sig", 10, T0 + 100, [{ name: "Allocated", vault: VAULT, wallet: WALLET }])
        yield* put("c-sig", 11, T0 + DAY + 5, [{ name: "ChargedFeesToUser", vault: VAULT, wallet: WALLET }, { name: "DepositRequested", vault: VAULT, wallet: OTHER }])
        yield* put("d-sig", 12, T0 + DAY + 50, [{ name: "DepositRequested", vault: OTHER_VAULT, wallet: WALLET }])
        yield* put("e-sig", 13, T0 + 2 * DAY, [{ name: "BundleSwitchCompleted", vault: null, wallet: WALLET, data: { sourceBundle: VAULT, targetBundle: OTHER_VAULT } }])
        yield* put("f-sig", 14, T0 + 2 * DAY + 1, [{ name: "BundleSwitchRequested", vault: null, wallet: WALLET, data: { sourceBundle: OTHER_VAULT, targetBundle: THIRD_VAULT } }])

        const all = yield* log.page({ wallet: WALLET, vault: null, from: null, to: null, before: null, limit: 100 })
        expect(keys(all)).toEqual(["f-sig:0", "e-sig:0", "d-sig:0", "c-sig:0", "b-sig:0", "a-sig:0"])
        expect(all[0]).toMatchObject({ name: "BundleSwitchRequested", slot: 14, blockTime: T0 + 2 * DAY + 1, vault: null, data: { sourceBundle: OTHER_VAULT } })
        // keyset pages of two
        const first = yield* log.page({ wallet: WALLET, vault: null, from: null, to: null, before: null, limit: 2 })
        const second = yield* log.page({ wallet: WALLET, vault: null, from: null, to: null, before: first[1]!, limit: 2 })
        const third = yield* log.page({ wallet: WALLET, vault: null, from: null, to: null, before: second[1]!, limit: 2 })
        expect([...keys(first), ...keys(second), ...keys(third)]).toEqual(keys(all))
        // one vault: its events and the switches out of or into it
        expect(keys(yield* log.page({ wallet: WALLET, vault: VAULT, from: null, to: null, before: null, limit: 100 }))).toEqual(["e-sig:0", "c-sig:0", "b-sig:0", "a-sig:0"])
        expect(keys(yield* log.page({ wallet: WALLET, vault: OTHER_VAULT, from: null, to: null, before: null, limit: 100 }))).toEqual(["f-sig:0", "e-sig:0", "d-sig:0"])
        // the second day only
        expect(keys(yield* log.page({ wallet: WALLET, vault: null, from: T0 + DAY, to: T0 + 2 * DAY, before: null, limit: 100 }))).toEqual(["d-sig:0", "c-sig:0"])
        // a window is oldest first; the events before a time newest first
        expect(keys(yield* log.window({ vault: VAULT, wallet: WALLET, from: T0, to: T0 + 2 * DAY }))).toEqual(["a-sig:0", "b-sig:0", "c-sig:0"])
        expect(keys(yield* log.before({ vault: VAULT, wallet: WALLET, before: T0 + 2 * DAY + 1, limit: 2 }))).toEqual(["e-sig:0", "c-sig:0"])
        expect(yield* log.span({ vault: VAULT, wallet: WALLET })).toEqual({ first: T0 + 100, last: T0 + DAY + 5 })
        expect(yield* log.span({ vault: THIRD_VAULT, wallet: WALLET })).toEqual({ first: null, last: null })
        expect([...(yield* log.vaultsOf(WALLET))].sort()).toEqual([VAULT, OTHER_VAULT].sort())
        expect(yield* log.vaultsOf(OTHER)).toEqual([VAULT])

        yield* sql`INSERT INTO history_backfill (id, finished) VALUES (1, true)`
        expect(yield* log.complete).toBe(true)

        // the indexes of 0013 apply to the feed's queries (their partial predicates are proven)
        yield* sql`SET enable_seqscan = off`
        const plan = (rows: ReadonlyArray<Record<string, unknown>>) => rows.map((row) => Object.values(row)[0]).join("\n")
        const feedPlan = plan(yield* sql`EXPLAIN SELECT signature FROM program_event WHERE wallet = ${WALLET}
          AND name IN ('DepositRequested', 'Allocated', 'RefundedDeposit', 'WithdrawalRequested', 'Redeemed',
                       'ChargedFeesToUser', 'BundleSwitchRequested', 'BundleSwitchCompleted', 'BundleSwitchFallbackToWallet')
          AND (slot, signature, event_index) < (${20}, ${"x"}, ${0})
          ORDER BY slot DESC, signature DESC, event_index DESC LIMIT 10`)
        expect(feedPlan).toContain("program_event_user_activity_idx")
        expect(feedPlan).not.toContain("Sort")
        const vaultPlan = plan(yield* sql`EXPLAIN SELECT signature FROM program_event WHERE wallet = ${WALLET} AND vault = ${VAULT}
          AND name IN ('DepositRequested', 'Allocated', 'RefundedDeposit', 'WithdrawalRequested', 'Redeemed', 'ChargedFeesToUser')
          ORDER BY slot DESC, signature DESC, event_index DESC LIMIT 10`)
        expect(vaultPlan).toContain("program_event_user_vault_activity_idx")
        yield* sql`RESET enable_seqscan`
      }))
  })
})
