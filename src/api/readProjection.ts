import { Either } from "effect"
import type { Projection } from "../../services/Projection.ts"
import type { ProjectionUnavailable } from "../domain/errors.ts"
import type { ProjectionState } from "../domain/projection/state.ts"

/**
 * Runs a read that can itself fail (unknown vault, bad path...) on the live projection, without a
 * fiber: the handler returns the Either as is.
 */
export const readEither = <A, E>(
  projection: Projection["Type"],
  read: (state: ProjectionState) => Either.Either<A, E>
): Either.Either<A, E | ProjectionUnavailable> => {
  // No `Either.flatMap` (a dual call and a closure per request): this runs on every keyed read.
  const outer = projection.readSync(read)
  return Either.isLeft(outer) ? Either.left(outer.left) : outer.right
}
