import { Exit, type Fiber, Runtime } from "effect"
import type { Effect } from "effect"

/**
 * Runs an effect synchronously when it can finish without waiting (projection reads do), which
 * keeps the uWS handler on its fast path; otherwise returns the fiber, still running, to be
 * observed. Nothing runs twice: the fiber is the one `runSyncExit` started.
 */
export const runSyncOrFork = <A, E>(
  runtime: Runtime.Runtime<never>,
  effect: Effect.Effect<A, E>
): Exit.Exit<A, E> | Fiber.RuntimeFiber<A, E> => {
  const exit = Runtime.runSyncExit(runtime, effect)
  if (Exit.isFailure(exit) && exit.cause._tag === "Die" && Runtime.isAsyncFiberException(exit.cause.defect)) {
    return exit.cause.defect.fiber as Fiber.RuntimeFiber<A, E>
  }
  return exit
}
