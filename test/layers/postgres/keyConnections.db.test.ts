import { SqlClient } from "@effect/sql"
import { describe, expect, layer } from "@effect/vitest"
import { Context, Effect, Layer, Option, Redacted } from "effect"
import { DatabaseLive } from "../../../layers/postgres/Database.ts"
import { KeyConnectionsLive, type KeyConnectionsOptions } from "../../../layers/postgres/KeyConnectionsLive.ts"
import { KeyConnections } from "../../../services/KeyConnections.ts"
import { scratchDatabaseUrl } from "../../support/databaseUrl.ts"

/** WebSocket connections per key counted by several instances (each its own pool) on one database. */
class DatabaseUrl extends Context.Tag("test/DatabaseUrl")<DatabaseUrl, string>() {}

const instance = (options: KeyConnectionsOptions = {}) =>
  Effect.flatMap(DatabaseUrl, (url) =>
    Layer.build(KeyConnectionsLive(options).pipe(Layer.provideMerge(DatabaseLive({ url: Option.some(Redacted.make(url)), dataDir: "" })))))

const uniqueKey = () => `key-${Math.random().toString(36).slice(2, 12)}`

/** Admits until one is accepted, every 50 ms, for up to `ms`; the milliseconds it took. */
const admittedWithin = (connections: KeyConnections["Type"], keyId: string, limit: number, ms: number) =>
  Effect.gen(function*() {
    const started = Date.now()
    while (Date.now() - started < ms) {
      if (yield* connections.admit(keyId, limit)) return Date.now() - started
      yield* Effect.sleep("50 millis")
    }
    return yield* Effect.die(new Error(`not admitted within ${ms} ms`))
  })

/** The key's rows in ws_connection_share, polled every 100 ms until there are at most `count` or `ms` pass. */
const shareRowsOnceAtMost = (sql: SqlClient.SqlClient, keyId: string, count: number, ms: number) =>
  Effect.gen(function*() {
    let rows = Number.POSITIVE_INFINITY
    for (let waited = 0; waited < ms && rows > count; waited += 100) {
      yield* Effect.sleep("100 millis")
      rows = (yield* sql<{ n: number }>`SELECT count(*)::int AS n FROM ws_connection_share WHERE key_id = ${keyId}`)[0]!.n
    }
    return rows
  })

layer(Layer.scoped(DatabaseUrl, scratchDatabaseUrl), { timeout: 120_000, excludeTestServices: true })("WebSocket connections per key across instances", (it) => {
  describe("one count for every instance", () => {
    it.scoped("the limit holds across two instances, concurrent upgrades included; a release frees a place for the other", () =>
      Effect.gen(function*() {
        const contextA = yield* instance()
        const a = Context.get(contextA, KeyConnections)
        const b = Context.get(yield* instance(), KeyConnections)
        const key = uniqueKey()
        expect(yield* a.admit(key, 3)).toBe(true)
        expect(yield* a.admit(key, 3)).toBe(true)
        expect(yield* b.admit(key, 3)).toBe(true)
        expect(yield* b.admit(key, 3)).toBe(false)
        expect(yield* a.admit(key, 3)).toBe(false)
        // another key has its own count
        expect(yield* b.admit(uniqueKey(), 3)).toBe(true)

        a.release(key)
        yield* admittedWithin(b, key, 3, 2_000)
        expect(yield* a.admit(key, 3)).toBe(false)

        // 20 upgrades at once on both instances for a limit of 5: exactly 5 get in
        const burst = uniqueKey()
        const outcomes = yield* Effect.all(
          Array.from({ length: 20 }, (_, i) => (i % 2 === 0 ? a : b).admit(burst, 5)),
          { concurrency: "unbounded" }
        )
        expect(outcomes.filter(Boolean)).toHaveLength(5)
        const sql = Context.get(contextA, SqlClient.SqlClient)
        const [row] = yield* sql<{ n: number }>`SELECT sum(connections)::int AS n FROM ws_connection_share WHERE key_id = ${burst}`
        expect(row!.n).toBe(5)
      }))

    it.scoped("an instance taken for dead while its heartbeat was held up counts again from its next admission", () =>
      Effect.gen(function*() {
        const contextA = yield* instance({ heartbeatMs: 200, expireAfterMs: 1_000 })
        const a = Context.get(contextA, KeyConnections)
        // as a live process whose heartbeats wait behind a busy pool
        const late = Context.get(yield* instance({ heartbeatMs: 3_600_000, expireAfterMs: 1_000 }), KeyConnections)
        const key = uniqueKey()
        expect(yield* late.admit(key, 2)).toBe(true)
        const sql = Context.get(contextA, SqlClient.SqlClient)
        // A's heartbeat deleted the silent instance with its row
        expect(yield* shareRowsOnceAtMost(sql, key, 0, 5_000)).toBe(0)
        expect(yield* late.admit(key, 2)).toBe(true)
        const [row] = yield* sql<{ n: number }>`SELECT sum(connections)::int AS n FROM ws_connection_share WHERE key_id = ${key}`
        expect(row!.n).toBe(2)
        expect(yield* a.admit(key, 2)).toBe(false)
      }))

    it.scoped("the connections of an instance that stopped without a word stop counting once its heartbeat is too old", () =>
      Effect.gen(function*() {
        const expireAfterMs = 1_500
        const contextA = yield* instance({ heartbeatMs: 200, expireAfterMs })
        const a = Context.get(contextA, KeyConnections)
        // as a process killed right after its upgrades: it never beats again (and never releases)
        const dead = Context.get(yield* instance({ heartbeatMs: 3_600_000 }), KeyConnections)
        const key = uniqueKey()
        for (let i = 0; i < 4; i++) expect(yield* dead.admit(key, 4)).toBe(true)
        expect(yield* a.admit(key, 4)).toBe(false)
        const took = yield* admittedWithin(a, key, 4, 10_000)
        console.log(`a killed instance's WebSocket connections stopped counting after ${took} ms (expiry ${expireAfterMs} ms)`)
        expect(took).toBeGreaterThan(500)
        expect(took).toBeLessThan(expireAfterMs + 1_500)
        // now the others' places: three more, then the limit again
        for (let i = 0; i < 3; i++) expect(yield* a.admit(key, 4)).toBe(true)
        expect(yield* a.admit(key, 4)).toBe(false)
        // and the dead instance's rows are deleted by a live instance's heartbeat
        const sql = Context.get(contextA, SqlClient.SqlClient)
        // only the live instance's row is left
        expect(yield* shareRowsOnceAtMost(sql, key, 1, 4_000)).toBe(1)
        expect((yield* sql<{ n: number }>`SELECT count(*)::int AS n FROM limit_instance`)[0]!.n).toBe(1)
      }))
  })
})
