import { SqlClient } from "@effect/sql"
import { describe, expect, layer } from "@effect/vitest"
import { Effect } from "effect"
import { migrate } from "../../../layers/postgres/migrations.ts"
import { TestDatabase } from "../../../src/bench/support/testDatabase.ts"

layer(TestDatabase, { timeout: 60_000 })("database (embedded, or DATABASE_URL when set)", (it) => {
  it.effect("applies the numbered migrations and records them", () =>
    Effect.gen(function*() {
      const sql = yield* SqlClient.SqlClient
      const tables = yield* sql<{ tableName: string }>`
        SELECT table_name AS "tableName" FROM information_schema.tables
        WHERE table_schema = 'public' ORDER BY table_name`
      const names = tables.map((t) => t.tableName)
      expect(names).toEqual(expect.arrayContaining(["checkpoint", "chain_account", "schema_migrations"]))
      const recorded = yield* sql<{ migrationId: number }>`SELECT migration_id AS "migrationId" FROM schema_migrations`
      expect(recorded.map((r) => r.migrationId)).toContain(1)
    }))

  it.effect("is idempotent: a second run applies nothing", () =>
    Effect.gen(function*() {
      const sql = yield* SqlClient.SqlClient
      const before = yield* sql<{ n: string }>`SELECT count(*) AS n FROM schema_migrations`
      const applied = yield* migrate()
      const after = yield* sql<{ n: string }>`SELECT count(*) AS n FROM schema_migrations`
      expect(applied).toEqual([])
      expect(after).toEqual(before)
    }))

  it.effect("stores raw account bytes losslessly", () =>
    Effect.gen(function*() {
      const sql = yield* SqlClient.SqlClient
      const data = Buffer.from(Array.from({ length: 440 }, (_, i) => (i * 7) % 256))
      yield* sql`INSERT INTO chain_account ${sql.insert({ address: "acct1", owner: "prog", slot: 42, data })}`
      const rows = yield* sql<{ data: Buffer; slot: string }>`SELECT data, slot FROM chain_account WHERE address = 'acct1'`
      expect(Buffer.compare(rows[0]!.data, data)).toBe(0)
      expect(String(rows[0]!.slot)).toBe("42")
    }))
})
