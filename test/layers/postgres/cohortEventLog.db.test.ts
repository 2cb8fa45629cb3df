import { SqlClient } from "@effect/sql"
import { describe, expect, layer } from "@effect/vitest"
import { Effect, Layer } from "effect"
import { CohortEventLogLive } from "../../../layers/postgres/CohortEventLogLive.ts"
import { CohortEventLog } from "../../../services/CohortEventLog.ts"
import { TestDatabase } from "../../../src/bench/support/testDatabase.ts"

const BUILDER = "Es9vMFrzaCERmJfrF4H2FYD4KCoNkY11McCe8BenwNYB"
const OTHER = "7vfCXTUXx5WJV5JADk17DUJ4ksgau7utNKj4b963voxs"
const VAULT = "J7qhMAKnB6G5dvoAN9281ufabajKbyGQxxd2bq6R7fPJ"

const bind = (signature: string, slot: number, wallet: string, referrer: string, mfee: number) =>
  Effect.gen(function*() {
    const sql = yield* SqlClient.SqlClient
    yield* sql`INSERT INTO chain_transaction ${sql.insert({ signature, slot, block_time: null, failed: false, event_count: 1 })}`
    yield* sql`INSERT INTO program_event ${sql.insert({
      signature, event_index: 0, slot, block_time: null, name: "UserReferrerSet", raw: new Uint8Array([1]),
      data: JSON.stringify({ user: wallet, referrer, bundleAccountKey: VAULT, referralPfeeBps: 0, referralMfeeBps: mfee, timestamp: String(1_700_000_000 + slot), referralTierIndex: null }),
      vault: VAULT, wallet
    })}`
  })

describe("CohortEventLogLive bindings", () => {
  layer(CohortEventLogLive.pipe(Layer.provideMerge(TestDatabase)), { timeout: 60_000 })((it) => {
    it.effect("the builder's bindings of the asked pairs (the program's clock without a block time); found ones kept, misses asked again", () =>
      Effect.gen(function*() {
        const log = yield* CohortEventLog
        const sql = yield* SqlClient.SqlClient
        yield* bind("a", 10, "w1", BUILDER, 1_000)
        yield* bind("b", 11, "w2", OTHER, 2_000)
        const pairs = [{ vault: VAULT, wallet: "w1" }, { vault: VAULT, wallet: "w2" }, { vault: VAULT, wallet: "w3" }]
        const first = yield* log.bindings(BUILDER, pairs)
        expect(first).toEqual([{ vault: VAULT, wallet: "w1", slot: 10, time: 1_700_000_010, referralPfeeBps: 0, referralMfeeBps: 1_000, referralTierIndex: null }])
        // a recorded binding never changes: served from memory even with the row gone
        yield* sql`DELETE FROM program_event WHERE signature = 'a'`
        expect(yield* log.bindings(BUILDER, pairs)).toEqual(first)
        // a miss is not remembered: w3's binding, written since, is found on the next ask
        yield* bind("c", 12, "w3", BUILDER, 3_000)
        const again = yield* log.bindings(BUILDER, pairs)
        expect(again.map((binding) => [binding.wallet, binding.referralMfeeBps])).toEqual([["w1", 1_000], ["w3", 3_000]])
        expect(yield* log.bindings(OTHER, pairs)).toMatchObject([{ wallet: "w2", referralMfeeBps: 2_000 }])
        expect(yield* log.bindings(BUILDER, [])).toEqual([])
      }))
  })
})
