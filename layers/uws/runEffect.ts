import { Either, Exit, type Fiber, Runtime } from "effect"
import type { Effect } from "effect"

/**
 * The outcome of an effect that is already a value (`Effect.succeed`, `Exit.fail`, an `Either`, as
 * projection reads return), found without running anything; undefined for any other effect.
 */
export const settledExit = <A, E>(effect: Effect.Effect<A, E, any>): Exit.Exit<A, E> | undefined => {
  if (Exit.isExit(effect)) return effect as Exit.Exit<A, E>
  if (Either.isEither(effect)) return Either.isRight(effect) ? Exit.succeed(effect.right as A) : Exit.fail(effect.left as E)
  return undefined
}

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
