import { builds, type Labelled, labelled, simulations } from "./instruments.ts"

export type BuildKind = "deposit" | "withdraw"

interface Validated {
  readonly validation?: { readonly accepted: boolean; readonly rejectionReasons: ReadonlyArray<{ readonly code: string }> }
}

// Rejection codes come from the build core's fixed set, so the label stays bounded.
const counters = new Map<string, Labelled<number>>()
const counterFor = (kind: BuildKind, outcome: string, rejection: string) => {
  const id = `${kind} ${outcome} ${rejection}`
  let counter = counters.get(id)
  if (counter === undefined) {
    counter = labelled(builds, { kind, outcome, rejection })
    counters.set(id, counter)
  }
  return counter
}

/** One build answered with HTTP 200: accepted, or refused by policy with its first rejection code. */
export const countBuild = (kind: BuildKind, answer: object): void => {
  const validation = (answer as Validated).validation
  const accepted = validation?.accepted !== false
  const rejection = accepted ? "none" : validation?.rejectionReasons[0]?.code ?? "unknown"
  counterFor(kind, accepted ? "accepted" : "refused", rejection).update(1)
}

const simulationCounters = new Map<string, Labelled<number>>()

/** A build's preflight: simulated, failed (the chain would reject it) or unavailable (node did not answer). */
export const countSimulation = (outcome: "simulated" | "failed" | "unavailable"): void => {
  let counter = simulationCounters.get(outcome)
  if (counter === undefined) simulationCounters.set(outcome, counter = labelled(simulations, { outcome }))
  counter.update(1)
}
