import { SqlClient } from "@effect/sql"
import { Duration, Effect, Layer, Runtime, Schedule } from "effect"
import { RateLimiter } from "../../services/RateLimiter.ts"
import { type CommitUnits, defaultLeaseSettings, type LeaseSettings, makeQuotaLeases } from "../../src/limits/quotaLeases.ts"

export interface SharedRateLimiterOptions {
  readonly leases?: Partial<LeaseSettings>
  /** How often requests not yet committed are committed, whatever the lease (default 1 s). */
  readonly flushEvery?: Duration.DurationInput
  /** How often rows of finished windows are deleted (default 60 s). */
  readonly cleanupEvery?: Duration.DurationInput
  /** How long after its end a window's row is kept (default 60 s: the instances' clocks may differ a little). */
  readonly keepFinishedSeconds?: number
}

/**
 * The `RateLimiter` counted across instances in `quota_window` (sql/0017): each instance accepts
 * requests on a local lease and adds them to the window's row in the background (see
 * `makeQuotaLeases` for the bound: a window accepts from `limit` to `limit - 1 + instances × lease`
 * requests when more come). Almost every request is decided at once (`consumeNow`); one waits only
 * when its instance's lease is used up and the commit is still in flight.
 */
export const SharedRateLimiterLive = (options: SharedRateLimiterOptions = {}) =>
  Layer.scoped(
    RateLimiter,
    Effect.gen(function*() {
      const sql = yield* SqlClient.SqlClient
      const runtime = yield* Effect.runtime<never>()
      const clock = yield* Effect.clock
      const settings: LeaseSettings = { ...defaultLeaseSettings, ...options.leases }

      const commit: CommitUnits = (bucket, windowStart, windowEnd, units) =>
        sql<{ readonly used: string }>`
          INSERT INTO quota_window AS w (bucket, window_start, window_end, used)
          VALUES (${bucket}, ${windowStart}, ${new Date(windowEnd)}, ${units})
          ON CONFLICT (bucket, window_start) DO UPDATE SET used = w.used + EXCLUDED.used
          RETURNING used`.pipe(
          Effect.map((rows) => Number(rows[0]!.used)),
          Effect.withSpan("RateLimiter.commit")
        )

      const leases = makeQuotaLeases({
        commit,
        run: (effect, onExit) => Runtime.runCallback(runtime)(effect, { onExit }),
        settings,
        now: () => clock.unsafeCurrentTimeMillis(),
        onStoreFailure: (bucket, cause) => {
          const kind = bucket.slice(0, bucket.indexOf(":"))
          Runtime.runFork(runtime)(
            Effect.logWarning(`shared quota store unreachable: a '${kind}' bucket is counted on this instance alone until its window ends`, cause)
          )
        }
      })

      // what each instance accepted reaches the shared count within a second, whatever its lease
      yield* Effect.sync(leases.flush).pipe(Effect.repeat(Schedule.spaced(options.flushEvery ?? Duration.seconds(1))), Effect.forkScoped)

      const keep = options.keepFinishedSeconds ?? 60
      const cleanup = sql`DELETE FROM quota_window WHERE window_end < now() - make_interval(secs => ${keep})`.pipe(
        Effect.catchAll((error) => Effect.logWarning("could not delete finished quota windows", error)),
        Effect.withSpan("RateLimiter.cleanup")
      )
      yield* cleanup.pipe(Effect.repeat(Schedule.spaced(options.cleanupEvery ?? Duration.seconds(60))), Effect.forkScoped)

      yield* Effect.logInfo("quotas and build meters are counted across instances in PostgreSQL (SHARED_LIMITS)")
      return RateLimiter.of({ consume: leases.consume, consumeNow: leases.consumeNow })
    })
  )
