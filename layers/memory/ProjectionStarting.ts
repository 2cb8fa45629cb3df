import { Effect, Layer, Queue, Stream } from "effect"
import { Projection, type ProjectionChangeBatch } from "../../services/Projection.ts"
import { ProjectionUnavailable } from "../../src/domain/errors.ts"
import type { ProjectionStatus } from "../../src/domain/status.ts"

const starting: ProjectionStatus = {
  status: "starting",
  asOf: null,
  chainSlot: null,
  lagSlots: null,
  lagSeconds: null,
  checkpointSlot: null,
  reason: "no chain ingestion is wired into this build yet",
  rpcUrl: null,
  wsUrl: null
}

const unavailable = ProjectionUnavailable.because(starting.status)

/**
 * A placeholder projection that never leaves `starting`: it lets the server run (and `/ready`
 * answer 503) until the live projection exists. It holds no data and ingests nothing.
 */
export const ProjectionStartingLive = Layer.succeed(Projection, {
  status: Effect.succeed(starting).pipe(Effect.withSpan("Projection.status")),
  requireLive: Effect.fail(unavailable).pipe(Effect.withSpan("Projection.requireLive")),
  read: () => Effect.fail(unavailable).pipe(Effect.withSpan("Projection.read")),
  statusChanges: Stream.concat(Stream.succeed(starting), Stream.never),
  subscribe: Effect.acquireRelease(Queue.unbounded<ProjectionChangeBatch>(), Queue.shutdown).pipe(
    Effect.withSpan("Projection.subscribe")
  )
})
