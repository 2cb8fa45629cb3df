import { Context, Effect, Layer } from "effect"
import type { ChainSource } from "../../services/ChainSource.ts"
import { Simulator, SimulatorUnavailable } from "../../services/Simulator.ts"
import { SimulatorLive, type SimulatorOptions } from "./SimulatorLive.ts"

/**
 * Like the other build services (ChainBuildServices.ts), the simulator needs the RPC endpoint that
 * `serve` learns only once ingestion has started: it is handed from there to the HTTP side.
 */
export class SimulatorHandoff extends Context.Tag("SimulatorHandoff")<SimulatorHandoff, { current: Simulator["Type"] | null }>() {}

export const SimulatorHandoffLive = Layer.sync(SimulatorHandoff, () => ({ current: null }))

/** Built next to `ChainSource` (inside ingestion). */
export const PublishSimulator = (options: SimulatorOptions = {}): Layer.Layer<never, never, ChainSource | SimulatorHandoff> =>
  Layer.scopedDiscard(
    Effect.gen(function*() {
      const handoff = yield* SimulatorHandoff
      const built = yield* Layer.build(SimulatorLive(options))
      handoff.current = Context.get(built, Simulator)
      yield* Effect.addFinalizer(() => Effect.sync(() => (handoff.current = null)))
    })
  )

const STARTING = new SimulatorUnavailable({ reason: "the chain connection is starting" })

/** The HTTP side's simulator: unavailable (builds fall back to the estimate) until handed over. */
export const SimulatorFromHandoff: Layer.Layer<Simulator, never, SimulatorHandoff> = Layer.effect(
  Simulator,
  Effect.map(SimulatorHandoff, (handoff) =>
    Simulator.of({
      simulate: (transactionBase64) =>
        Effect.suspend(() => (handoff.current === null ? Effect.fail(STARTING) : handoff.current.simulate(transactionBase64)))
    }))
)
