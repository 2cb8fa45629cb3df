import { Context, type Effect } from "effect"

/**
 * The compute-unit price (micro-lamports per CU) for builds whose request names none: a percentile
 * of recent prioritization fees, refreshed in the background. Never fails and never does I/O: with
 * no fresh sample it answers the configured fallback.
 */
export class PriorityFees extends Context.Tag("PriorityFees")<
  PriorityFees,
  {
    readonly microLamportsPerComputeUnit: Effect.Effect<bigint>
  }
>() {}
