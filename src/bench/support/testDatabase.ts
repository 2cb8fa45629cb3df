import fs from "node:fs"
import os from "node:os"
import path from "node:path"
import * as Reactivity from "@effect/experimental/Reactivity"
import { PgClient } from "@effect/sql-pg"
import { Effect, Layer, Option, Redacted } from "effect"
import { DatabaseLive } from "../../../layers/postgres/Database.ts"

/** A fresh temporary directory that the `postgres` system user can traverse (mkdtemp makes 0700 ones). */
export const tempDir = (prefix: string): string => {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), prefix))
  fs.chmodSync(dir, 0o755)
  return dir
}

/** The server the database tests use instead of an embedded one, when CI provides it. */
export const serverUrl = (): string | undefined => process.env.DATABASE_URL || undefined

const withDatabase = (server: string, database: string): Redacted.Redacted => {
  const url = new URL(server)
  url.pathname = `/${database}`
  return Redacted.make(url.toString())
}

/** A throwaway database on the server, dropped when the layer is released: test files never share tables. */
const scratchDatabaseOn = (server: string) =>
  Layer.unwrapScoped(
    Effect.gen(function*() {
      const name = `vg_test_${process.pid}_${Math.random().toString(36).slice(2, 10)}`
      const admin = yield* PgClient.make({ url: Redacted.make(server) }).pipe(Effect.provide(Reactivity.layer))
      yield* admin.unsafe(`CREATE DATABASE ${name}`)
      yield* Effect.addFinalizer(() => Effect.orDie(admin.unsafe(`DROP DATABASE IF EXISTS ${name} WITH (FORCE)`)))
      return DatabaseLive({ url: Option.some(withDatabase(server, name)), dataDir: "" })
    })
  )

const embeddedInTempDir = Layer.unwrapScoped(
  Effect.gen(function*() {
    const dir = yield* Effect.acquireRelease(
      Effect.sync(() => tempDir("vg-db-")),
      (dir) => Effect.sync(() => fs.rmSync(dir, { recursive: true, force: true }))
    )
    return DatabaseLive({ url: Option.none(), dataDir: dir })
  })
)

/** A migrated database for tests: on DATABASE_URL's server when set, else an embedded PostgreSQL. */
export const TestDatabase = Layer.suspend(() => {
  const server = serverUrl()
  return server === undefined ? embeddedInTempDir : scratchDatabaseOn(server)
})
