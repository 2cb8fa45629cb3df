import { SqlClient } from "@effect/sql"
import { PgClient } from "@effect/sql-pg"
import { describe, expect, layer } from "@effect/vitest"
import { Clock, Context, Duration, Effect, Exit, Layer, Scope, Stream } from "effect"
import { LEADER_LOCK_KEY, LeadershipLive } from "../../../layers/postgres/LeadershipLive.ts"
import { Leadership, type LeadershipRole } from "../../../services/Leadership.ts"
import { TestDatabase } from "../../../src/bench/support/testDatabase.ts"

/** A gateway's Leadership, in a scope of its own (closing it is that gateway stopping). */
const startInstance = Effect.gen(function*() {
  const scope = yield* Scope.make()
  const context = yield* Layer.buildWithScope(LeadershipLive(), scope)
  return { leadership: Context.get(context, Leadership), stop: Scope.close(scope, Exit.void) }
})

type Instance = Effect.Effect.Success<typeof startInstance>

/** Samples the roles every 50 ms until one leads; fails if two ever lead at once. Returns the ms it took. */
const untilOneLeads = (instances: ReadonlyArray<Instance>, timeoutMs: number) =>
  Effect.gen(function*() {
    const began = Date.now()
    for (;;) {
      const roles: Array<LeadershipRole> = instances.map((i) => i.leadership.current())
      const leaders = roles.filter((role) => role === "leader").length
      expect(leaders).toBeLessThanOrEqual(1)
      if (leaders === 1) return Date.now() - began
      if (Date.now() - began > timeoutMs) return yield* Effect.die(new Error(`no leader after ${timeoutMs} ms`))
      yield* Effect.sleep(Duration.millis(50))
    }
  })

/** The server process holding the leader lock, from pg_locks. */
const lockHolder = Effect.flatMap(SqlClient.SqlClient, (sql) =>
  sql<{ pid: number }>`
    SELECT pid FROM pg_locks
    WHERE locktype = 'advisory' AND granted AND ((classid::bigint << 32) | objid::bigint) = ${LEADER_LOCK_KEY}::bigint`)

/** The layer's tests run under the test clock; these wait in real time. */
const inRealTime = <A, E, R>(effect: Effect.Effect<A, E, R>) => Effect.withClock(effect, Clock.make())

layer(TestDatabase, { timeout: 120_000 })("Leadership on PostgreSQL (advisory lock)", (it) => {
  describe("several instances on one database", () => {
    it.effect("exactly one leads; when the leader stops, another takes over within 2 s", () =>
      Effect.gen(function*() {
        const first = yield* startInstance
        // the first attempt is made at start: a lone instance leads at once
        expect(first.leadership.current()).toBe("leader")
        const second = yield* startInstance
        const third = yield* startInstance
        yield* Effect.sleep(Duration.millis(1_500))
        expect([second.leadership.current(), third.leadership.current()]).toEqual(["follower", "follower"])
        expect((yield* lockHolder).length).toBe(1)

        yield* first.stop
        const took = yield* untilOneLeads([second, third], 2_000)
        expect(took).toBeLessThanOrEqual(2_000)
        yield* second.stop
        yield* third.stop
      }).pipe(inRealTime))

    it.effect("a leader whose connection is killed steps down, and one instance leads again within 3 s", () =>
      Effect.gen(function*() {
        const a = yield* startInstance
        const b = yield* startInstance
        const [leader] = a.leadership.current() === "leader" ? [a, b] : [b, a]
        expect(leader!.leadership.current()).toBe("leader")
        const holder = yield* lockHolder
        expect(holder.length).toBe(1)
        const pg = yield* PgClient.PgClient
        yield* pg`SELECT pg_terminate_backend(${holder[0]!.pid})`
        // the old leader notices within its next check and steps down
        const stepDown = Date.now()
        while (leader!.leadership.current() === "leader" && Date.now() - stepDown < 3_000) yield* Effect.sleep(Duration.millis(20))
        expect(Date.now() - stepDown).toBeLessThan(3_000)
        yield* untilOneLeads([a, b], 3_000)
        const newHolder = yield* lockHolder
        expect(newHolder.length).toBe(1)
        expect(newHolder[0]!.pid).not.toBe(holder[0]!.pid)
        yield* a.stop
        yield* b.stop
      }).pipe(inRealTime))

    it.effect("publishes its role changes", () =>
      Effect.gen(function*() {
        const a = yield* startInstance
        const b = yield* startInstance
        const seen: Array<LeadershipRole> = []
        const follower = a.leadership.current() === "follower" ? a : b
        const leader = follower === a ? b : a
        yield* Effect.forkScoped(Stream.runForEach(follower.leadership.changes, (role) => Effect.sync(() => seen.push(role))))
        yield* Effect.sleep(Duration.millis(50))
        yield* leader.stop
        yield* untilOneLeads([follower], 2_500)
        yield* Effect.sleep(Duration.millis(50))
        expect(seen).toEqual(["follower", "leader"])
        yield* follower.stop
      }).pipe(Effect.scoped, inRealTime))
  })
})
