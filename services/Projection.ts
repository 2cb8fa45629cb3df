import { Context, type Effect, type Either, type Scope, type Queue, type Stream } from "effect"
import type { ProjectionUnavailable } from "../src/domain/errors.ts"
import type { ProjectionChange } from "../src/domain/projection/changes.ts"
import type { ProjectionState } from "../src/domain/projection/state.ts"
import type { ProjectionStatus } from "../src/domain/status.ts"

/**
 * The live in-memory projection of the ntbundle program. One writer (the ingest actor) owns the
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
    /** Changes applied from now on, in order, each batch stamped with the state version after it. */
    readonly subscribe: Effect.Effect<Queue.Dequeue<ProjectionChangeBatch>, never, Scope.Scope>
  }
>() {}

export interface ProjectionChangeBatch {
  readonly slot: number
  readonly version: number
  readonly changes: ReadonlyArray<ProjectionChange>
}
