import type { Effect, Either, Exit } from "effect"

// Guards for the per-request path of the transport and the middleware. Effect's own (`Exit.isExit`,
// `Either.isEither`, `Fiber.isFiber`) test a symbol with `in` inside one shared function that sees
// every object shape of the process: a megamorphic lookup each, and a cached read made a dozen of
// them (5 % of its instructions, callgrind). What is checked here is always an effect (what a
// handler or a middleware returned) or a fiber the transport started, and among those the public
// `_tag` tells at once: only an Exit is tagged Success or Failure, only an Either Right or Left, and
// a fiber carries no tag.

type Tagged = { readonly _tag?: unknown }

/** Whether `effect` is already an `Exit`. */
export const isExitEffect = <A, E, R>(effect: Effect.Effect<A, E, R>): effect is Exit.Exit<A, E> => {
  const tag = (effect as Tagged)._tag
  return tag === "Success" || tag === "Failure"
}

/** Whether `effect` is an `Either` (an outcome known without running anything). */
export const isEitherEffect = <A, E, R>(effect: Effect.Effect<A, E, R>): effect is Either.Either<A, E> => {
  const tag = (effect as Tagged)._tag
  return tag === "Right" || tag === "Left"
}

/** Whether `value` (an Exit, an Either or a fiber) is a settled outcome, not a fiber still to observe. */
export const isSettled = (value: object): value is Exit.Exit<unknown, unknown> | Either.Either<unknown, unknown> => {
  const tag = (value as Tagged)._tag
  return tag === "Success" || tag === "Failure" || tag === "Right" || tag === "Left"
}
