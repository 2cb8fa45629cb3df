import { Effect, Either, Exit } from "effect"

/**
 * The outcome of an effect that is already a value (an `Exit`, which `Effect.succeed` and
 * `Effect.fail` are, or an `Either`, which synchronous reads return), found without running
 * anything; undefined for any other effect. A route handler that answers with such a value is
 * written without starting a fiber.
 */
export const settled = <A, E, R>(effect: Effect.Effect<A, E, R>): Exit.Exit<A, E> | undefined => {
  if (Exit.isExit(effect)) return effect as Exit.Exit<A, E>
  if (Either.isEither(effect)) return Either.isRight(effect) ? Exit.succeed(effect.right as A) : Exit.fail(effect.left as E)
  return undefined
}

/** `Effect.map` that keeps a settled effect settled. */
export const mapSettled = <A, E, R, B>(effect: Effect.Effect<A, E, R>, f: (a: A) => B): Effect.Effect<B, E, R> => {
  const done = settled(effect)
  return done === undefined ? Effect.map(effect, f) : Exit.map(done, f)
}
