import * as Reactivity from "@effect/experimental/Reactivity"
import { SqlClient } from "@effect/sql"
import { PgClient } from "@effect/sql-pg"
import { SqlError } from "@effect/sql/SqlError"
import { Context, Duration, Effect, Layer, Redacted, Schedule } from "effect"
import Pg from "pg"
import { labelled, pgPoolConnections } from "../../src/telemetry/instruments.ts"

export interface PoolTarget {
  readonly url?: Redacted.Redacted | undefined
  readonly host?: string | undefined
  readonly port?: number | undefined
  readonly database?: string | undefined
  readonly username?: string | undefined
  readonly password?: Redacted.Redacted | undefined
  readonly maxConnections?: number | undefined
}

const poolGauges = (["total", "idle", "waiting"] as const).map((state) => [state, labelled(pgPoolConnections, { state })] as const)

const samplePool = (pool: Pg.Pool): void => {
  const counts = { total: pool.totalCount, idle: pool.idleCount, waiting: pool.waitingCount }
  for (const [state, gauge] of poolGauges) gauge.update(counts[state])
}

/** The `pg` pool under the SqlClient, for what the SqlClient cannot do: COPY into a table. */
export class PgPool extends Context.Tag("vault-gateway/PgPool")<PgPool, Pg.Pool>() {}

const acquirePool = (target: PoolTarget) =>
  Effect.acquireRelease(
    Effect.gen(function*() {
      const pool = new Pg.Pool({
        connectionString: target.url === undefined ? undefined : Redacted.value(target.url),
        host: target.host,
        port: target.port,
        database: target.database,
        user: target.username,
        password: target.password === undefined ? undefined : Redacted.value(target.password),
        application_name: "vault-gateway",
        ...(target.maxConnections === undefined ? {} : { max: target.maxConnections })
      })
      // A broken idle connection is replaced on the next checkout; the error must not crash the process.
      pool.on("error", () => {})
      yield* Effect.tryPromise({
        try: () => pool.query("SELECT 1"),
        catch: (cause) => new SqlError({ cause, message: "PgClient: Failed to connect" })
      }).pipe(
        Effect.timeoutFail({ duration: Duration.seconds(5), onTimeout: () => new SqlError({ message: "PgClient: Connection timed out" }) }),
        Effect.tapError(() => Effect.promise(() => pool.end()))
      )
      return pool
    }),
    (pool) => Effect.promise(() => pool.end()).pipe(Effect.timeoutOption(Duration.seconds(1)))
  )

/**
 * PgClient (and SqlClient) over a `pg` pool this layer owns, also provided as PgPool: its
 * connection counts are sampled for the metrics (PgClient.layer keeps its pool private).
 */
export const pooledPgClient = (target: PoolTarget) =>
  Layer.scopedContext(
    Effect.gen(function*() {
      const pool = yield* acquirePool(target)
      yield* Effect.forkScoped(Effect.sync(() => samplePool(pool)).pipe(Effect.repeat(Schedule.spaced(Duration.seconds(5)))))
      const client = yield* PgClient.fromPool({ applicationName: "vault-gateway", acquire: Effect.succeed(pool) })
      return Context.make(PgClient.PgClient, client).pipe(Context.add(SqlClient.SqlClient, client), Context.add(PgPool, pool))
    })
  ).pipe(Layer.provide(Reactivity.layer))
