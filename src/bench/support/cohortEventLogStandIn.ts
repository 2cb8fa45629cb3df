import { Effect, Layer } from "effect"
import { type Binding, CohortEventLog, type FlowRow } from "../../../services/CohortEventLog.ts"

/** An event log holding the given bindings and flows (default: none), its history complete unless told. */
export const CohortEventLogStandIn = (options: {
  readonly bindings?: ReadonlyArray<Binding & { readonly referrer: string }>
  readonly flows?: ReadonlyArray<FlowRow>
  readonly historyComplete?: boolean
} = {}) =>
  Layer.succeed(CohortEventLog, {
    flows: () => Effect.succeed(options.flows ?? []),
    bindings: (referrer, pairs) =>
      Effect.succeed(
        (options.bindings ?? []).filter((binding) =>
          binding.referrer === referrer && pairs.some((pair) => pair.vault === binding.vault && pair.wallet === binding.wallet))
      ),
    historyComplete: Effect.succeed(options.historyComplete ?? true)
  })
