import { Context, Data, type Effect } from "effect"

/** What the node said about running the transaction against current chain state. */
export type SimulationOutcome =
  | {
    readonly kind: "succeeded"
    readonly unitsConsumed: number
    readonly logs: ReadonlyArray<string>
  }
  | {
    readonly kind: "failed"
    /** The transaction error as the node reported it, as JSON text (e.g. `{"InstructionError":[2,{"Custom":6003}]}`). */
    readonly error: string
    readonly logs: ReadonlyArray<string>
    readonly unitsConsumed: number | null
  }

/** The node could not be asked (timeout, transport or JSON-RPC error): not the transaction's fault. */
export class SimulatorUnavailable extends Data.TaggedError("SimulatorUnavailable")<{ readonly reason: string }> {}

/**
 * Preflight of an unsigned build: `simulateTransaction` without signature verification, with the
 * node's own recent blockhash (the build's blockhash is checked by the Blockhash service, not here).
 * When this service is absent from the build's context, simulation is off.
 */
export class Simulator extends Context.Tag("Simulator")<
  Simulator,
  {
    readonly simulate: (transactionBase64: string) => Effect.Effect<SimulationOutcome, SimulatorUnavailable>
  }
>() {}
