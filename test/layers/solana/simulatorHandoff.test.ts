import { describe, expect, it } from "@effect/vitest"
import { Context, Effect, Exit, Layer, Scope } from "effect"
import { PublishSimulator, SimulatorFromHandoff, SimulatorHandoff, SimulatorHandoffLive } from "../../../layers/solana/SimulatorHandoff.ts"
import { ChainSource } from "../../../services/ChainSource.ts"
import { Simulator } from "../../../services/Simulator.ts"
import { startSandbox } from "../../../src/sandbox/index.ts"

// How `serve` wires the simulator: the HTTP side holds it before ingestion has a chain connection
// (builds then keep their estimate), and simulates on the node once ingestion has published it.
const unused = Effect.die(new Error("not used by the simulator"))

describe("simulator handoff", () => {
  it.scoped("unavailable until published, the node's answers after, unavailable again once ingestion stops", () =>
    Effect.gen(function*() {
      const sandbox = yield* Effect.acquireRelease(
        Effect.promise(() => startSandbox({ port: 0, clock: "manual", seed: "handoff" })),
        (started) => Effect.promise(() => started.close())
      )
      const context = yield* Layer.build(SimulatorFromHandoff.pipe(Layer.provideMerge(SimulatorHandoffLive)))
      const simulator = Context.get(context, Simulator)
      const before = yield* Effect.flip(simulator.simulate("AAAA"))
      expect(before.reason).toMatch(/starting/)

      // ingestion's side: only the endpoint matters to the simulator
      const source = ChainSource.of({
        programId: "",
        rpcUrl: sandbox.rpcUrl,
        wsUrl: sandbox.wsUrl,
        genesisHash: unused,
        blockTime: () => unused,
        events: () => unused as never,
        fetchAccounts: () => unused
      })
      const ingestion = yield* Scope.make()
      yield* Layer.buildWithScope(
        PublishSimulator().pipe(Layer.provide(Layer.merge(Layer.succeed(ChainSource, source), Layer.succeedContext(Context.pick(SimulatorHandoff)(context))))),
        ingestion
      )
      // the node answered (it cannot decode "AAAA"): a JSON-RPC error, not "starting"
      const published = yield* Effect.flip(simulator.simulate("AAAA"))
      expect(published.reason).toMatch(/JSON-RPC/)

      yield* Scope.close(ingestion, Exit.void)
      const after = yield* Effect.flip(simulator.simulate("AAAA"))
      expect(after.reason).toMatch(/starting/)
    }), 30_000)
})
