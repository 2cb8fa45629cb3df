import { describe, expect, it } from "@effect/vitest"
import { Duration, Effect, Layer, Option } from "effect"
import { ChainStore } from "../../services/ChainStore.ts"
import { HistoryBackfill } from "../../services/HistoryBackfill.ts"
import { Projection } from "../../services/Projection.ts"
import { startSandbox } from "../../src/sandbox/sandbox.ts"
import { installScenario } from "../../src/sandbox/scenario/index.ts"
import { eventsSettled, expectedEvents, ingestLayer, type ScenarioSandboxHandle, settledAgainstTruth, stepSlots } from "../support/ingestHarness.ts"

const PROGRAM = "BUNDDh4P5XviMm1f3gCvnq2qKx6TGosAGnoUK12e7cXU"

/** A sandbox whose program has neither accounts nor transactions yet (no scenario installed). */
const bareSandbox = Effect.acquireRelease(
  Effect.promise(() => startSandbox({ port: 0, clock: "manual", seed: 5, programId: PROGRAM })),
  (handle) => Effect.promise(() => handle.close())
)

describe("a program without any transaction", () => {
  it.live("goes live after its first snapshot, then logs the program's first transactions", () =>
    Effect.gen(function*() {
      const handle = yield* bareSandbox
      const context = yield* Layer.build(ingestLayer(handle.rpcUrl, handle.wsUrl, PROGRAM))
      const projection = Effect.provide(Projection, context)

      let status = "unknown"
      for (let i = 0; i < 100 && status !== "live"; i++) {
        handle.step(1)
        yield* Effect.sleep(Duration.millis(50))
        status = (yield* (yield* projection).status).status
      }
      // Before the fix the snapshot's empty seam produced no TransactionsComplete: catching_up forever.
      expect(status).toBe("live")
      const backfill = yield* Effect.provide(HistoryBackfill, context)
      for (let i = 0; i < 100 && (yield* backfill.progress).state !== "done"; i++) yield* Effect.sleep(Duration.millis(50))
      expect(yield* backfill.progress).toMatchObject({ state: "done", done: 0, total: 0 })

      // The program comes to life: genesis accounts and the scenario's onboarding transactions.
      const scenario = installScenario(handle.chain, { users: 6, builders: 1, activity: 4, keeperIntervalSlots: 5 })
      const sandbox: ScenarioSandboxHandle = { handle, scenario, close: () => handle.close() }
      yield* stepSlots(sandbox, 30)
      scenario.stop()
      const settled = yield* settledAgainstTruth(sandbox).pipe(Effect.provide(context))
      expect(settled.status.status).toBe("live")

      const expected = yield* Effect.promise(() => expectedEvents(sandbox, PROGRAM))
      expect(expected.size).toBeGreaterThan(5)
      const stored = yield* eventsSettled(expected).pipe(Effect.provide(context))
      expect(new Set(stored)).toEqual(expected)
      expect(stored.length).toBe(expected.size)

      // Completion markers now name real transactions: the checkpoint resumes from one.
      const chainStore = yield* Effect.provide(ChainStore, context)
      let lastSignature: string | null = null
      for (let i = 0; i < 100 && lastSignature === null; i++) {
        handle.step(1)
        yield* Effect.sleep(Duration.millis(50))
        lastSignature = Option.getOrNull(Option.flatMap(yield* chainStore.loadCheckpoint, (c) => Option.fromNullable(c.lastSignature)))
      }
      expect(handle.ledger.transactions.get(lastSignature ?? "")).toBeDefined()
    }).pipe(Effect.scoped), 90_000)
})
