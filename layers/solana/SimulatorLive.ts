import { Duration, Effect, Layer } from "effect"
import { ChainSource } from "../../services/ChainSource.ts"
import { type SimulationOutcome, Simulator, SimulatorUnavailable } from "../../services/Simulator.ts"

export interface SimulatorOptions {
  /** A build waits on the simulation: past this the build goes ahead with its estimate (default 3 s). */
  readonly timeout?: Duration.DurationInput
  /** Default "confirmed", the commitment the blockhash and the token balance are read at. */
  readonly commitment?: "processed" | "confirmed"
}

interface SimulationAnswer {
  readonly result?: {
    readonly value: { readonly err: unknown; readonly logs: ReadonlyArray<string> | null; readonly unitsConsumed?: number | null }
  }
  readonly error?: { readonly code?: number; readonly message: string }
}

const outcomeOf = (value: NonNullable<SimulationAnswer["result"]>["value"]): SimulationOutcome => {
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
 * `simulateTransaction` over JSON-RPC at `rpcUrl`: signatures not verified (the build is unsigned)
 * and the node's latest blockhash substituted (`replaceRecentBlockhash`), so the answer is about the
 * instructions against current state. Any transport, HTTP or JSON-RPC error, or a timeout, is
 * `SimulatorUnavailable`; a transaction error is a `failed` outcome with the program logs.
 */
export const simulatorAt = (rpcUrl: string, options: SimulatorOptions = {}) => {
  const timeout = options.timeout ?? Duration.seconds(3)
  const commitment = options.commitment ?? "confirmed"
  return Simulator.of({
    simulate: (transactionBase64) =>
      Effect.tryPromise({
        try: async (signal) => {
          const response = await fetch(rpcUrl, {
            method: "POST",
            signal,
            headers: { "content-type": "application/json" },
            body: JSON.stringify({
              jsonrpc: "2.0",
              id: 1,
              method: "simulateTransaction",
              params: [transactionBase64, { encoding: "base64", sigVerify: false, replaceRecentBlockhash: true, commitment }]
            })
          })
          if (!response.ok) throw new Error(`HTTP ${response.status}`)
          const answer = (await response.json()) as SimulationAnswer
          if (answer.result !== undefined) return outcomeOf(answer.result.value)
          throw new Error(answer.error === undefined ? "no result" : `JSON-RPC ${answer.error.code ?? "?"}: ${answer.error.message}`)
        },
        catch: (error) => new SimulatorUnavailable({ reason: error instanceof Error ? error.message : String(error) })
      }).pipe(
        Effect.timeoutFail({ duration: timeout, onTimeout: () => new SimulatorUnavailable({ reason: `no answer within ${Duration.format(timeout)}` }) }),
        Effect.withSpan("Simulator.simulate")
      )
  })
}

/** The simulator on the ChainSource's RPC endpoint. */
export const SimulatorLive = (options: SimulatorOptions = {}): Layer.Layer<Simulator, never, ChainSource> =>
  Layer.effect(Simulator, Effect.map(ChainSource, (source) => simulatorAt(source.rpcUrl, options)))
