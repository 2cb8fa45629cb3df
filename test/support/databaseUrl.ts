import path from "node:path"
import fs from "node:fs"
import * as Reactivity from "@effect/experimental/Reactivity"
import { PgClient } from "@effect/sql-pg"
import { Effect, Redacted } from "effect"
import { embeddedPostgres } from "../../layers/postgres/EmbeddedPostgres.ts"
import { serverUrl, tempDir } from "../../src/bench/support/testDatabase.ts"

/**
 * The URL of an empty database for as long as the scope lasts: a scratch database on
 * DATABASE_URL's server when set, else an embedded PostgreSQL in a temporary directory. Several
 * pools (or processes) on it model several instances of the gateway.
 */
export const scratchDatabaseUrl = Effect.gen(function*() {
  const server = serverUrl()
  if (server !== undefined) {
    const name = `vg_test_${process.pid}_${Math.random().toString(36).slice(2, 10)}`
    const admin = yield* PgClient.make({ url: Redacted.make(server) }).pipe(Effect.provide(Reactivity.layer))
    yield* admin.unsafe(`CREATE DATABASE ${name}`)
    yield* Effect.addFinalizer(() => Effect.orDie(admin.unsafe(`DROP DATABASE IF EXISTS ${name} WITH (FORCE)`)))
    const url = new URL(server)
    url.pathname = `/${name}`
    return url.toString()
  }
  const dir = yield* Effect.acquireRelease(
    Effect.sync(() => tempDir("vg-shared-db-")),
    (dir) => Effect.sync(() => fs.rmSync(dir, { recursive: true, force: true }))
  )
  const connection = yield* embeddedPostgres(path.join(dir, "postgres"))
  return `postgres://${connection.username}:${encodeURIComponent(Redacted.value(connection.password))}@${connection.host}:${connection.port}/${connection.database}`
}).pipe(Effect.orDie)
