import { setFlagsFromString } from "node:v8"

/**
 * Heap growth between full collections, in percent of what survived the last one.
 *
 * With the in-process sandbox the one process holds the chain's generated history (~300 MB live)
 * and churns through the history backfill (every transaction encoded as JSON by the sandbox,
 * parsed and decoded by the gateway). V8 then lets the heap grow to up to 4x its live size before
 * the next full collection: a first start peaked at 1.1-1.4 GB of RSS for ~0.4 GB live. A fixed
 * factor of 1.3 keeps the peak near the live size for a few more (mostly concurrent) collections.
 * A gateway following a real node keeps V8's adaptive default.
 */
export const SANDBOX_HEAP_GROWING_PERCENT = 30

/** Applies the sandbox's bound on heap growth to this process (a V8 flag read at every full GC). */
export const boundHeapGrowthForSandbox = (): void => setFlagsFromString(`--heap-growing-percent=${SANDBOX_HEAP_GROWING_PERCENT}`)
