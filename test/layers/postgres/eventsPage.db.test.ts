import { SqlClient } from "@effect/sql"
import { describe, expect, layer } from "@effect/vitest"
import { Effect } from "effect"
import { eventsPage, type LogPosition } from "../../../layers/postgres/dailyRollupSql.ts"
import { TestDatabase } from "../../../src/bench/support/testDatabase.ts"
import type { LoggedEvent } from "../../../src/domain/history/loggedEvent.ts"

// Slots of different digit counts: their text order ("1000" < "99") is not chain order.
const SLOTS = [9, 99, 100, 1000, 1001, 10_000]

describe("event log pages for the history rollup", () => {
  layer(TestDatabase, { timeout: 60_000 })((it) => {
    it.effect("come in chain order (numeric slots) and, page after page, hold every event once", () =>
      Effect.gen(function*() {
        const sql = yield* SqlClient.SqlClient
        for (const slot of [...SLOTS].reverse()) {
          const signature = `sig${slot}`
          yield* sql`INSERT INTO chain_transaction ${sql.insert({ signature, slot, block_time: 1_000 + slot, failed: false, event_count: 2 })}`
          for (const index of [0, 1]) {
            yield* sql`INSERT INTO program_event ${sql.insert({
              signature, event_index: index, slot, block_time: 1_000 + slot, name: "OracleUpdated", raw: new Uint8Array([1]),
              data: JSON.stringify({ totalShares: String(slot) }), vault: null, wallet: null
            })}`
          }
        }
        const expected = SLOTS.flatMap((slot) => [`${slot}#0`, `${slot}#1`])
        for (const pageSize of [1, 3, 5, 100]) {
          const seen: Array<string> = []
          let after: LogPosition | null = null
          for (;;) {
            const page: ReadonlyArray<LoggedEvent> = yield* eventsPage(sql, after, 1_000_000, pageSize)
            seen.push(...page.map((event) => `${event.slot}#${event.eventIndex}`))
            const last = page[page.length - 1]
            if (last !== undefined) after = { slot: last.slot, signature: last.signature, eventIndex: last.eventIndex }
            if (page.length < pageSize) break
          }
          expect(seen).toEqual(expected)
        }
        // below: only events of an earlier block time
        const early = yield* eventsPage(sql, null, 1_000 + 1000, 100)
        expect(early.map((event) => event.slot)).toEqual([9, 9, 99, 99, 100, 100])
      }))
  })
})
