import { PgClient } from "@effect/sql-pg"
import { Duration, Effect, Layer, Redacted, Schedule, SubscriptionRef } from "effect"
import Pg from "pg"
import { Leadership, type LeadershipRole } from "../../services/Leadership.ts"
import { leaderRole, NO_TAGS } from "../../src/telemetry/instruments.ts"

export interface LeadershipOptions {
  /** How often a follower tries the lock and the leader checks its connection (default 1 s). */
  readonly pollEvery?: Duration.DurationInput
  /** A query not answered within this means the connection is lost (default 3 s). */
  readonly queryTimeout?: Duration.DurationInput
}

/** The advisory lock every gateway on one database contends for ("vgld" in ASCII). */
export const LEADER_LOCK_KEY = "1986489444"

/**
 * The server drops a session whose client vanished without closing its socket (host down, network
 * cut) after about idle + interval x count seconds, releasing its lock: 5 + 2 x 3 = 11 s.
 */
const KEEPALIVE_SETTINGS = "SET tcp_keepalives_idle = 5; SET tcp_keepalives_interval = 2; SET tcp_keepalives_count = 3"

/**
 * Leadership through a session-level `pg_advisory_lock` held on a connection of its own (not the
 * pool's: a pooled connection would carry the lock to whoever borrows it next). A follower tries the
 * lock every `pollEvery`; the leader checks its connection as often and steps down as soon as it is
 * lost (the server has released the lock with the session by then, or will within the keepalive
 * time). The first attempt is made while the layer is built, so a lone instance starts as leader.
 */
export const LeadershipLive = (options: LeadershipOptions = {}) =>
  Layer.scoped(
    Leadership,
    Effect.gen(function*() {
      const pg = yield* PgClient.PgClient
      const pollEvery = Duration.decode(options.pollEvery ?? Duration.seconds(1))
      const queryTimeout = Duration.decode(options.queryTimeout ?? Duration.seconds(3))
      const role = yield* SubscriptionRef.make<LeadershipRole>("follower")
      let current: LeadershipRole = "follower"
      let client: Pg.Client | null = null
      let lost = false

      const setRole = (next: LeadershipRole) =>
        Effect.gen(function*() {
          if (next === current) return
          current = next
          leaderRole.unsafeUpdate(next === "leader" ? 1 : 0, NO_TAGS)
          yield* SubscriptionRef.set(role, next)
        })

      const drop = Effect.sync(() => {
        const closing = client
        client = null
        lost = false
        // not awaited: on a dead network `end` may never answer; the socket goes with the object
        if (closing !== null) closing.end().catch(() => {})
      })

      const query = (text: string) =>
        Effect.tryPromise(() => {
          if (client === null) return Promise.reject(new Error("no connection"))
          return client.query<{ locked?: boolean }>(text, [])
        }).pipe(Effect.timeoutFail({ duration: queryTimeout, onTimeout: () => new Error("the database did not answer in time") }))

      const connect = Effect.tryPromise(async () => {
        const { config } = pg
        const fresh = new Pg.Client({
          connectionString: config.url === undefined ? undefined : Redacted.value(config.url),
          host: config.host,
          port: config.port,
          database: config.database,
          user: config.username,
          password: config.password === undefined ? undefined : Redacted.value(config.password),
          ssl: config.ssl,
          application_name: "vault-gateway leadership",
          keepAlive: true,
          connectionTimeoutMillis: Duration.toMillis(queryTimeout)
        })
        const onLost = () => {
          if (client === fresh) lost = true
        }
        fresh.on("error", onLost)
        fresh.on("end", onLost)
        await fresh.connect()
        await fresh.query(KEEPALIVE_SETTINGS)
        client = fresh
      })

      const step = Effect.gen(function*() {
        if (lost) yield* Effect.fail(new Error("the connection closed"))
        if (client === null) yield* connect
        if (current === "leader") {
          yield* query("SELECT 1")
          return
        }
        const rows = yield* query(`SELECT pg_try_advisory_lock(${LEADER_LOCK_KEY}) AS locked`)
        if (rows.rows[0]?.locked === true) {
          yield* setRole("leader")
          yield* Effect.logInfo("leadership: this instance is the leader (writes checkpoints, the history backfill and the daily rollups)")
        }
      }).pipe(
        Effect.catchAll((error) =>
          Effect.gen(function*() {
            yield* drop
            if (current === "leader") {
              yield* setRole("follower")
              yield* Effect.logWarning(`leadership: lost the database connection (${error.message}); stepping down`)
            }
          })
        )
      )

      leaderRole.unsafeUpdate(0, NO_TAGS)
      yield* step
      if (current === "follower") yield* Effect.logInfo("leadership: another instance leads; following (its checkpoints are restored)")
      yield* Effect.forkScoped(Effect.repeat(step, Schedule.spaced(pollEvery)))
      // Closing the session releases the lock at once for the next instance.
      yield* Effect.addFinalizer(() => Effect.zipRight(drop, Effect.sync(() => (current = "follower"))))

      return {
        current: () => current,
        changes: role.changes
      }
    })
  )
