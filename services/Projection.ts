import { Context, type Effect, type Stream } from "effect"
import type { ProjectionUnavailable } from "../src/domain/errors.ts"
import type { ProjectionStatus } from "../src/domain/status.ts"

/**
 * The live in-memory projection of the ntbundle program. One writer (the ingest actor) owns the
 * state; readers get the current status and, when live, read-only views.
 */
export class Projection extends Context.Tag("Projection")<
  Projection,
  {
    /** Current status and lag; cheap and synchronous. */
    readonly status: Effect.Effect<ProjectionStatus>
    /** Fails with ProjectionUnavailable unless the projection is live. */
    readonly requireLive: Effect.Effect<void, ProjectionUnavailable>
    /** Every status change, starting with the current one. */
    readonly statusChanges: Stream.Stream<ProjectionStatus>
  }
>() {}
