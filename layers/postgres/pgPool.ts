import { PgClient } from "@effect/sql-pg"
import { SqlError } from "@effect/sql/SqlError"
import { Duration, Effect, Redacted, Schedule } from "effect"
import Pg from "pg"
import { labelled, pgPoolConnections } from "../../src/telemetry/instruments.ts"

export interface PoolTarget {
  readonly url?: Redacted.Redacted | undefined
  readonly host?: string | undefined
  readonly port?: number | undefined
  readonly database?: string | undefined
  readonly username?: string | undefined
  readonly password?: Redacted.Redacted | undefined
}

const poolGauges = (["total", "idle", "waiting"] as const).map((state) => [state, labelled(pgPoolConnections, { state })] as const)

const samplePool = (pool: Pg.Pool): void => {
  const counts = { total: pool.totalCount, idle: pool.idleCount, waiting: pool.waitingCount }
  for (const [state, gauge] of poolGauges) gauge.update(counts[state])
}

/**
 * PgClient (and SqlClient) over a `pg` pool this layer owns, so that the pool's connection counts
 * can be sampled for the metrics (PgClient.layer keeps its pool private).
 */
export const pooledPgClient = (target: PoolTarget) =>
  PgClient.layerFromPool({
    applicationName: "vault-gateway",
    acquire: Effect.acquireRelease(
      Effect.gen(function*() {
        const pool = new Pg.Pool({
          connectionString: target.url === undefined ? undefined : Redacted.value(target.url),
          host: target.host,
          port: target.port,
          database: target.database,
          user: target.username,
          password: target.password === undefined ? undefined : Redacted.value(target.password),
          application_name: "vault-gateway"
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
    ).pipe(
      Effect.tap((pool) => Effect.forkScoped(Effect.sync(() => samplePool(pool)).pipe(Effect.repeat(Schedule.spaced(Duration.seconds(5))))))
    )
  })
