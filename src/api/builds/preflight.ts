import { Clock, Effect, Option } from "effect"
import { Simulator } from "../../../services/Simulator.ts"
import {
  type BuiltTransaction,
  MAX_COMPUTE_UNIT_LIMIT,
  SimulationFailed,
  simulatedComputeUnitLimit,
  withComputeUnitLimit
} from "../../domain/builds/index.ts"
import { countSimulation } from "../../telemetry/buildCounts.ts"

const hasTransaction = (response: object): response is BuiltTransaction => "transactionBase64" in response

/** While the node is down every build would warn: one line per this interval, with the count. */
const WARN_INTERVAL_MS = 10_000

/**
 * Server preflight of accepted builds, when a `Simulator` is in the context (simulation on):
 * - the simulation succeeds: the compute-unit limit becomes the units it consumed plus a margin,
 *   and the answer says `simulation: "simulated"`;
 * - the transaction fails in simulation: `SimulationFailed` (422) with the error and program logs;
 * - the node cannot be asked: not the user's fault, so the build keeps its per-instruction
 *   estimate and says `simulation: "skipped"` (a warning is logged); the wallet's own preflight
 *   still runs before it submits.
 * Refusals and builds without a simulator pass through unchanged (`"skipped"`).
 */
export const makePreflight = Effect.map(Effect.serviceOption(Simulator), (simulator) => {
  let lastWarnMs = -Infinity
  let unwarned = 0
  const warnUnavailable = (reason: string) =>
    Effect.flatMap(Clock.currentTimeMillis, (now) => {
      unwarned++
      if (now - lastWarnMs < WARN_INTERVAL_MS) return Effect.void
      const builds = unwarned
      lastWarnMs = now
      unwarned = 0
      return Effect.logWarning(`simulation unavailable (${builds} build(s) kept their estimated compute-unit limit): ${reason}`)
    })
  return <R extends object>(response: R): Effect.Effect<R, SimulationFailed> => {
    if (Option.isNone(simulator) || !hasTransaction(response)) return Effect.succeed(response)
    // Simulated at the highest limit, so a low per-instruction estimate cannot make it fail.
    const probe = withComputeUnitLimit(response, MAX_COMPUTE_UNIT_LIMIT)
    return simulator.value.simulate(probe.transactionBase64).pipe(
      Effect.tap((outcome) => countSimulation(outcome.kind === "succeeded" ? "simulated" : "failed")),
      Effect.flatMap((outcome) =>
        outcome.kind === "succeeded"
          ? Effect.succeed({
            ...withComputeUnitLimit(response, simulatedComputeUnitLimit(outcome.unitsConsumed)),
            simulation: "simulated" as const
          } as R)
          : Effect.fail(SimulationFailed.of(outcome.error, outcome.logs))
      ),
      Effect.catchTag("SimulatorUnavailable", (unavailable) => {
        countSimulation("unavailable")
        return Effect.as(warnUnavailable(unavailable.reason), response)
      })
    )
  }
})
