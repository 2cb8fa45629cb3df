import { pooledPgClient } from "../../layers/postgres/pgPool.ts"
import { describe, expect, it } from "@effect/vitest"
import { Effect, Exit, Layer, Scope } from "effect"
import { embeddedPostgres, freeLoopbackPort } from "../../layers/postgres/EmbeddedPostgres.ts"
import { migrate } from "../../layers/postgres/migrations.ts"
import { Projection } from "../../services/Projection.ts"
import { tempDir } from "../../src/bench/support/testDatabase.ts"
import {
  accountDifferences,
  checkpointAt,
  eventsSettled,
  expectedEvents,
  ingestionOn,
  sandboxCall,
  scenarioSandbox,
  settledAgainstTruth,
  stepSlots
} from "../support/ingestHarness.ts"

const PROGRAM = "BUNDDh4P5XviMm1f3gCvnq2qKx6TGosAGnoUK12e7cXU"

/**
 * PostgreSQL stops and starts again under a running gateway (its own embedded server on a fixed
 * port, whatever DATABASE_URL says): ingestion goes on meanwhile, persistence retries, and the
 * checkpoint and event log end up complete and exact.
 */
describe("PostgreSQL restarted under the gateway", () => {
  it.live("resumes checkpointing and loses nothing", () =>
    Effect.gen(function*() {
      const dir = tempDir("vg-pg-restart-")
      const port = yield* Effect.promise(() => freeLoopbackPort())
      const startDatabase = (scope: Scope.CloseableScope) => Scope.extend(embeddedPostgres(`${dir}/postgres`, { port }), scope)
      let databaseScope = yield* Scope.make()
      const server = yield* startDatabase(databaseScope)
      yield* Effect.addFinalizer(() => Scope.close(databaseScope, Exit.void))

      const sandbox = yield* scenarioSandbox({ seed: 5, users: 16, builders: 2, activity: 12, keeperIntervalSlots: 10 })
      const database = Layer.effectDiscard(migrate()).pipe(Layer.provideMerge(pooledPgClient({ ...server, maxConnections: 4 })))
      const context = yield* Layer.build(ingestionOn(sandbox.handle.rpcUrl, sandbox.handle.wsUrl, PROGRAM, database))
      const projection = Effect.provide(Projection, context)
      for (let i = 0; i < 300 && (yield* (yield* projection).status).status !== "live"; i++) yield* stepSlots(sandbox, 1, 20)
      yield* stepSlots(sandbox, 20)

      yield* Scope.close(databaseScope, Exit.void)
      yield* stepSlots(sandbox, 30, 20) // ingestion and activity go on while the database is down
      databaseScope = yield* Scope.make()
      yield* startDatabase(databaseScope)
      yield* stepSlots(sandbox, 20)

      sandbox.scenario.stop()
      yield* Effect.promise(() => sandboxCall(sandbox.handle.rpcUrl, "sandbox_fault", [{ kind: "clear" }]))
      yield* stepSlots(sandbox, 3)
      const { truth } = yield* settledAgainstTruth(sandbox).pipe(Effect.provide(context))

      // The checkpoint catches up with the projection once the database is back, and the event log
      // holds every event once.
      const checkpointed = yield* checkpointAt(truth.slot - 1).pipe(Effect.provide(context))
      expect(accountDifferences(truth.accounts, checkpointed)).toEqual([])
      const expected = yield* Effect.promise(() => expectedEvents(sandbox, PROGRAM))
      const events = yield* eventsSettled(expected).pipe(Effect.provide(context))
      expect(events.length).toBe(new Set(events).size)
      expect(new Set(events)).toEqual(expected)
    }).pipe(Effect.scoped), 120_000)
})
