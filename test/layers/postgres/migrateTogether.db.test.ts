import * as Reactivity from "@effect/experimental/Reactivity"
import { SqlClient } from "@effect/sql"
import { PgClient } from "@effect/sql-pg"
import { describe, expect, layer } from "@effect/vitest"
import { Effect, Either } from "effect"
import { migrate } from "../../../layers/postgres/migrations.ts"
import { TestDatabase } from "../../../src/bench/support/testDatabase.ts"

layer(TestDatabase, { timeout: 120_000 })("migrations when several instances start together", (it) => {
  describe("on a fresh database", () => {
    it.effect("every instance starts: one applies the migrations, the others find them applied", () =>
      Effect.gen(function*() {
        const admin = yield* PgClient.PgClient
        for (let round = 0; round < 3; round++) {
          const name = `vg_migrate_${process.pid}_${round}`
          yield* admin.unsafe(`DROP DATABASE IF EXISTS ${name}`)
          yield* admin.unsafe(`CREATE DATABASE ${name}`)
          // one instance: its own client on the new database, migrating at start
          const instance = Effect.scoped(
            Effect.flatMap(PgClient.make({ ...admin.config, database: name, url: undefined }), (client) =>
              Effect.either(Effect.provideService(migrate(), SqlClient.SqlClient, client)))
          ).pipe(Effect.map(Either.map((applied) => applied.length)), Effect.provide(Reactivity.layer))
          const outcomes = yield* Effect.all([instance, instance, instance, instance], { concurrency: "unbounded" })
          expect(outcomes.map((outcome) => outcome._tag)).toEqual(["Right", "Right", "Right", "Right"])
          const applied = outcomes.map((outcome) => (outcome._tag === "Right" ? outcome.right : -1)).sort((a, b) => b - a)
          expect(applied[0]).toBeGreaterThan(10)
          expect(applied.slice(1)).toEqual([0, 0, 0])
          yield* admin.unsafe(`DROP DATABASE ${name} WITH (FORCE)`)
        }
      }))
  })
})
