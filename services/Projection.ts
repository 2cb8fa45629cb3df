import { Context, type Effect, type Either, type Stream } from "effect"
import type { ProjectionUnavailable } from "../src/domain/errors.ts"
import type { ProjectionChange } from "../src/domain/projection/changes.ts"
import type { ProjectionState } from "../src/domain/projection/state.ts"
import type { ProjectionStatus } from "../src/domain/status.ts"

/**
 * The live in-memory projection of the ntbundle program. One writer (the projection writer) owns the
 * state; readers get the current status and, when live, synchronous read-only access.
 */
export class Projection extends Context.Tag("Projection")<
  Projection,
  {
    /** Current status and lag; cheap and synchronous. */
    readonly status: Effect.Effect<ProjectionStatus>
    /** The same, without an Effect: for hot request paths that must not start a fiber. */
    readonly currentStatus: () => ProjectionStatus
    /** Fails with ProjectionUnavailable unless the projection is live. */
    readonly requireLive: Effect.Effect<void, ProjectionUnavailable>
    /** Runs `read` on the state when live (synchronously: no write can interleave). Never mutate. */
    readonly read: <A>(read: (state: ProjectionState) => A) => Effect.Effect<A, ProjectionUnavailable>
    /** The same, without an Effect (an Either a handler can return as is). */
    readonly readSync: <A>(read: (state: ProjectionState) => A) => Either.Either<A, ProjectionUnavailable>
    /** Every status change, starting with the current one. */
    readonly statusChanges: Stream.Stream<ProjectionStatus>
    /**
     * Calls `listener` with the changes applied from now on, in order, each batch stamped with the
     * state version after it; returns the function that stops it. The writer calls listeners on its
     * own turn, right after applying the batches: a listener must be quick and never mutate the
     * state. An error a listener throws is logged and never reaches the writer.
     */
    readonly listen: (listener: ProjectionChangeListener) => () => void
  }
>() {}

export type ProjectionChangeListener = (batches: ReadonlyArray<ProjectionChangeBatch>) => void

export interface ProjectionChangeBatch {
  readonly slot: number
  readonly version: number
  readonly changes: ReadonlyArray<ProjectionChange>
}
