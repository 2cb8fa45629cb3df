import { SqlClient } from "@effect/sql"
import { describe, expect, layer } from "@effect/vitest"
import { ConfigProvider, Context, Effect, Layer } from "effect"
import { CursorSecretLive } from "../../../layers/postgres/CursorSecretLive.ts"
import { CursorSecret } from "../../../services/CursorSecret.ts"
import { makeCursorCodec } from "../../../src/api/history/cursor.ts"
import { TestDatabase } from "../../../src/bench/support/testDatabase.ts"

/** One instance's key: a fresh build of the layer, as a process starting on the database does. */
const keyOfAnInstance = (env: Record<string, string> = {}) =>
  Effect.scoped(Layer.build(CursorSecretLive)).pipe(
    Effect.map((context) => Context.get(context, CursorSecret).key),
    Effect.withConfigProvider(ConfigProvider.fromMap(new Map(Object.entries(env))))
  )

layer(TestDatabase, { timeout: 120_000 })("CursorSecret on PostgreSQL", (it) => {
  describe("without CURSOR_SECRET", () => {
    it.effect("every instance on one database gets the same random key, so one's cursor is valid on another", () =>
      Effect.gen(function*() {
        const sql = yield* SqlClient.SqlClient
        yield* sql`DELETE FROM cursor_secret`
        // instances starting together: one inserts, the others read its key
        const keys = yield* Effect.all([1, 2, 3, 4].map(() => keyOfAnInstance()), { concurrency: "unbounded" })
        expect(keys[0]!.length).toBe(32)
        for (const key of keys) expect(Buffer.from(key).equals(Buffer.from(keys[0]!))).toBe(true)
        const issued = makeCursorCodec(keys[0]).encode({ scope: "vault-x", lastDate: "2026-01-02" })
        expect(makeCursorCodec(keys[3]).decode(issued, "vault-x")._tag).toBe("Right")
        // and it is kept: a later start reads the same one
        expect(Buffer.from(yield* keyOfAnInstance()).equals(Buffer.from(keys[0]!))).toBe(true)
        // a process with its own random key (the old behaviour) refuses it
        expect(makeCursorCodec().decode(issued, "vault-x")._tag).toBe("Left")
      }))

    it.effect("another database means another key", () =>
      Effect.gen(function*() {
        const sql = yield* SqlClient.SqlClient
        const first = yield* keyOfAnInstance()
        yield* sql`DELETE FROM cursor_secret`
        const second = yield* keyOfAnInstance()
        expect(Buffer.from(first).equals(Buffer.from(second))).toBe(false)
      }))
  })

  it.effect("CURSOR_SECRET, when set, is the key (the database's is not used)", () =>
    Effect.gen(function*() {
      const key = yield* keyOfAnInstance({ CURSOR_SECRET: "operator-chosen" })
      expect(Buffer.from(key).toString()).toBe("operator-chosen")
    }))
})
