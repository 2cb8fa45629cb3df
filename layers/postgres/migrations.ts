import fs from "node:fs"
import path from "node:path"
import { fileURLToPath } from "node:url"
import * as Migrator from "@effect/sql/Migrator"
import { SqlClient } from "@effect/sql"
import { Effect } from "effect"

/** `sql/` at the project root: numbered plain SQL files, `0001_name.sql`. */
export const MIGRATIONS_DIR = fileURLToPath(new URL("../../sql/", import.meta.url))

const FILE_NAME = /^(\d+)_([\w-]+)\.sql$/

/** Reads the numbered SQL files; each runs as one multi-statement script inside the migrator's transaction. */
export const sqlFileLoader = (directory: string): Migrator.Loader =>
  Effect.try({
    try: () =>
      fs
        .readdirSync(directory)
        .flatMap((file): Array<Migrator.ResolvedMigration> => {
          const match = FILE_NAME.exec(file)
          if (match === null) return []
          const script = fs.readFileSync(path.join(directory, file), "utf8")
          const run = Effect.flatMap(SqlClient.SqlClient, (sql) => sql.unsafe(script))
          return [[Number(match[1]), match[2]!, Effect.succeed(run)]]
        })
        .sort((a, b) => a[0] - b[0]),
    catch: (cause) =>
      new Migrator.MigrationError({ reason: "import-error", message: `cannot read migrations in ${directory}`, cause })
  })

const runMigrator = Migrator.make({})

/** The advisory lock that makes instances starting together on one database migrate one at a time. */
const MIGRATION_LOCK_KEY = "1986489453"

/**
 * Holds the migration lock (on a connection of its own) while `effect` runs: the migrator locks its
 * table only once it exists, so two first starts would race to create it.
 */
const oneAtATime = <A, E, R>(effect: Effect.Effect<A, E, R>) =>
  Effect.scoped(
    Effect.gen(function*() {
      const sql = yield* SqlClient.SqlClient
      const connection = yield* sql.reserve
      yield* Effect.acquireRelease(
        connection.executeRaw(`SELECT pg_advisory_lock(${MIGRATION_LOCK_KEY})`, []),
        // a broken connection has lost the lock with its session anyway
        () => Effect.ignore(connection.executeRaw(`SELECT pg_advisory_unlock(${MIGRATION_LOCK_KEY})`, []))
      )
      return yield* effect
    })
  )

/** Applies the migrations not yet recorded in `schema_migrations`; returns the ones it applied. */
export const migrate = (directory: string = MIGRATIONS_DIR) =>
  oneAtATime(runMigrator({ loader: sqlFileLoader(directory), table: "schema_migrations" })).pipe(
    Effect.tap((applied) =>
      applied.length === 0
        ? Effect.logDebug("database schema is up to date")
        : Effect.logInfo(`applied migrations: ${applied.map(([id, name]) => `${id}_${name}`).join(", ")}`)
    ),
    Effect.withSpan("Database.migrate")
  )
