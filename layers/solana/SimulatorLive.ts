import { Duration, Effect, Layer } from "effect"
import { type SimulationOutcome, Simulator, SimulatorUnavailable } from "../../services/Simulator.ts"
import { SolanaRpc, type SolanaRpcMethods } from "../../services/SolanaRpc.ts"

export interface SimulatorOptions {
  /** A build waits on the simulation: past this the build goes ahead with its estimate (default 3 s). */
  readonly timeout?: Duration.DurationInput
  /** Default "confirmed", the commitment the blockhash and the token balance are read at. */
  readonly commitment?: "processed" | "confirmed"
}

type Simulated = SolanaRpcMethods["simulateTransaction"]["result"]["value"]

const outcomeOf = (value: Simulated | undefined): SimulationOutcome => {
  if (value === undefined || value === null) throw new Error("no result")
  const logs = value.logs ?? []
  const units = typeof value.unitsConsumed === "number" ? value.unitsConsumed : null
  if (value.err === null || value.err === undefined) {
    // a node that simulated successfully but reports no units gives nothing to size the limit by
    if (units === null || units <= 0) throw new Error("the simulation reported no unitsConsumed")
    return { kind: "succeeded", unitsConsumed: units, logs }
  }
  return { kind: "failed", error: typeof value.err === "string" ? value.err : JSON.stringify(value.err), logs, unitsConsumed: units }
}

/**
 * `simulateTransaction` over SolanaRpc: signatures not verified (the build is unsigned) and the
 * node's latest blockhash substituted (`replaceRecentBlockhash`), so the answer is about the
 * instructions against current state. Any transport, HTTP or JSON-RPC error, a 429, a chain still
 * starting, or a timeout, is `SimulatorUnavailable`; a transaction error is a `failed` outcome with
 * the program logs.
 */
export const simulatorOn = (rpc: SolanaRpc["Type"], options: SimulatorOptions = {}) => {
  const timeout = options.timeout ?? Duration.seconds(3)
  const commitment = options.commitment ?? "confirmed"
  const unavailable = (error: unknown) => new SimulatorUnavailable({ reason: error instanceof Error ? error.message : String(error) })
  return Simulator.of({
    simulate: (transactionBase64) =>
      rpc
        .call(
          "simulateTransaction",
          [transactionBase64, { encoding: "base64", sigVerify: false, replaceRecentBlockhash: true, commitment }],
          { whenRateLimited: "fail" }
        )
        .pipe(
          Effect.mapError(unavailable),
          Effect.flatMap((answer) => Effect.try({ try: () => outcomeOf(answer?.value), catch: unavailable })),
          Effect.timeoutFail({ duration: timeout, onTimeout: () => new SimulatorUnavailable({ reason: `no answer within ${Duration.format(timeout)}` }) }),
          Effect.withSpan("Simulator.simulate")
        )
  })
}

export const SimulatorLive = (options: SimulatorOptions = {}): Layer.Layer<Simulator, never, SolanaRpc> =>
  Layer.effect(Simulator, Effect.map(SolanaRpc, (rpc) => simulatorOn(rpc, options)))
