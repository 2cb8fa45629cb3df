import { describe, expect, it } from "@effect/vitest"
import { Duration, Effect, Layer } from "effect"
import { Projection } from "../../services/Projection.ts"
import {
  eventsSettled,
  expectedEvents,
  ingestLayer,
  sandboxCall,
  scenarioSandbox,
  type ScenarioSandboxHandle,
  settledAgainstTruth,
  stepSlots
} from "../support/ingestHarness.ts"

const PROGRAM = "BUNDDh4P5XviMm1f3gCvnq2qKx6TGosAGnoUK12e7cXU"
const scenario = { seed: 11, users: 24, builders: 3, activity: 12, keeperIntervalSlots: 10 } as const

/**
 * Runs the gateway's ingestion against a scenario sandbox on real sockets, with `during` applied
 * while activity runs; then stops the activity and checks the projection against the sandbox's
 * ground truth, account for account, and the event log against every transaction, event for event.
 */
const ingestUnder = (during: (sandbox: ScenarioSandboxHandle) => Effect.Effect<void>) =>
  Effect.gen(function*() {
    const sandbox = yield* scenarioSandbox(scenario)
    const context = yield* Layer.build(ingestLayer(sandbox.handle.rpcUrl, sandbox.handle.wsUrl, PROGRAM))
    const projection = Effect.provide(Projection, context)
    const waitLive = Effect.gen(function*() {
      for (let i = 0; i < 200; i++) {
        yield* stepSlots(sandbox, 1)
        if ((yield* (yield* projection).status).status === "live") return
        yield* Effect.sleep(Duration.millis(20))
      }
      return yield* Effect.die(new Error("the projection never went live"))
    })
    yield* waitLive
    yield* stepSlots(sandbox, 20)
    yield* during(sandbox)
    yield* stepSlots(sandbox, 20)
    sandbox.scenario.stop()
    yield* Effect.promise(() => sandboxCall(sandbox.handle.rpcUrl, "sandbox_fault", [{ kind: "clear" }]))
    yield* stepSlots(sandbox, 3)
    const settled = yield* settledAgainstTruth(sandbox).pipe(Effect.provide(context))

    // The event log holds every event of every program transaction exactly once (the history
    // backfill covers what came before the gateway started).
    const expected = yield* Effect.promise(() => expectedEvents(sandbox, PROGRAM))
    const stored = yield* eventsSettled(expected).pipe(Effect.provide(context))
    expect(new Set(stored).size).toBe(stored.length)
    expect(new Set(stored)).toEqual(expected)
    expect(expected.size).toBeGreaterThan(20)
    return settled
  }).pipe(Effect.scoped)

describe("ingestion against the sandbox chain", () => {
  it.live("projects the chain losslessly: accounts byte-equal to the truth, every event once", () =>
    Effect.gen(function*() {
      const { truth, status } = yield* ingestUnder(() => Effect.void)
      expect(status.status).toBe("live")
      expect(truth.accounts.size).toBeGreaterThan(30)
    }), 90_000)

  it.live("recovers when every WebSocket is closed mid-stream", () =>
    ingestUnder((sandbox) =>
      Effect.gen(function*() {
        yield* Effect.promise(() => sandboxCall(sandbox.handle.rpcUrl, "sandbox_fault", [{ kind: "closeSockets" }]))
        yield* stepSlots(sandbox, 10)
        yield* Effect.promise(() => sandboxCall(sandbox.handle.rpcUrl, "sandbox_fault", [{ kind: "closeSockets" }]))
      })
    ), 90_000)

  it.live("stays exact when 20 % of notifications are dropped", () =>
    ingestUnder((sandbox) =>
      Effect.gen(function*() {
        yield* Effect.promise(() => sandboxCall(sandbox.handle.rpcUrl, "sandbox_fault", [{ kind: "dropNotifications", fraction: 0.2 }]))
        yield* stepSlots(sandbox, 40)
      })
    ), 90_000)

  it.live("notices stalled notifications, is not live meanwhile, and catches up", () =>
    ingestUnder((sandbox) =>
      Effect.gen(function*() {
        yield* Effect.promise(() => sandboxCall(sandbox.handle.rpcUrl, "sandbox_fault", [{ kind: "stallNotifications", onClear: "drop" }]))
        yield* stepSlots(sandbox, 20, 150)
      })
    ), 90_000)

  it.live("rides out bursts of HTTP 429 with Retry-After", () =>
    ingestUnder((sandbox) =>
      Effect.gen(function*() {
        yield* Effect.promise(() => sandboxCall(sandbox.handle.rpcUrl, "sandbox_fault", [{ kind: "http429", fraction: 0.5, retryAfterSeconds: 1 }]))
        yield* stepSlots(sandbox, 30, 30)
      })
    ), 90_000)
})
