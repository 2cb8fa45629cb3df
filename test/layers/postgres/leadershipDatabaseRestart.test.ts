import { PgClient } from "@effect/sql-pg"
import { describe, expect, it } from "@effect/vitest"
import { Context, Duration, Effect, Exit, Layer, Scope } from "effect"
import { embeddedPostgres, freeLoopbackPort } from "../../../layers/postgres/EmbeddedPostgres.ts"
import { LeadershipLive } from "../../../layers/postgres/LeadershipLive.ts"
import { Leadership, type LeadershipRole } from "../../../services/Leadership.ts"
import { tempDir } from "../../../src/bench/support/testDatabase.ts"

/** Waits (real time) until `role` answers `wanted`; returns the ms it took. */
const untilRole = (role: () => LeadershipRole, wanted: LeadershipRole, timeoutMs: number) =>
  Effect.gen(function*() {
    const began = Date.now()
    while (role() !== wanted) {
      if (Date.now() - began > timeoutMs) return yield* Effect.die(new Error(`still not ${wanted} after ${timeoutMs} ms`))
      yield* Effect.sleep(Duration.millis(50))
    }
    return Date.now() - began
  })

/**
 * PostgreSQL stops and starts again under a leader (its own embedded server on a fixed port): the
 * leader steps down when its lock connection is lost, and leads again once the server is back.
 */
describe("Leadership across a PostgreSQL restart", () => {
  it.live("steps down while the server is down and leads again when it is back", () =>
    Effect.gen(function*() {
      const dir = tempDir("vg-leader-restart-")
      const port = yield* Effect.promise(() => freeLoopbackPort())
      const startDatabase = (scope: Scope.CloseableScope) => Scope.extend(embeddedPostgres(`${dir}/postgres`, { port }), scope)
      let databaseScope = yield* Scope.make()
      const server = yield* startDatabase(databaseScope)
      yield* Effect.addFinalizer(() => Scope.close(databaseScope, Exit.void))

      const context = yield* Layer.build(LeadershipLive().pipe(Layer.provide(PgClient.layer({ ...server, maxConnections: 2 }))))
      const leadership = Context.get(context, Leadership)
      expect(leadership.current()).toBe("leader")

      yield* Scope.close(databaseScope, Exit.void)
      const steppedDown = yield* untilRole(leadership.current, "follower", 5_000)
      databaseScope = yield* Scope.make()
      yield* startDatabase(databaseScope)
      const ledAgain = yield* untilRole(leadership.current, "leader", 10_000)
      console.log(`leadership: stepped down ${steppedDown} ms after the server stopped, led again ${ledAgain} ms after it started`)
    }).pipe(Effect.scoped), 90_000)
})
