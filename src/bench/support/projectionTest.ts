import { Context, Effect, Either, Layer } from "effect"
import { startingStatus as startingStatusBecause } from "../../../layers/projection/startingStatus.ts"
import { Projection, type ProjectionChangeBatch, type ProjectionChangeListener } from "../../../services/Projection.ts"
import { ProjectionUnavailable } from "../../domain/errors.ts"
import { ProjectionState } from "../../domain/projection/state.ts"
import { isLive, type ProjectionStatus } from "../../domain/status.ts"
import { StatusCell } from "../../domain/statusCell.ts"
import { NTBUNDLE_PROGRAM_ID } from "../../ntbundle/programs.ts"

export const startingStatus: ProjectionStatus = startingStatusBecause(null)

export const liveStatus = (slot: number, overrides: Partial<ProjectionStatus> = {}): ProjectionStatus => ({
  status: "live",
  asOf: { slot, blockTime: 1_700_000_000 + Math.floor(slot * 0.4) },
  chainSlot: slot + 1,
  lagSlots: 1,
  lagSeconds: 0.4,
  checkpointSlot: Math.max(0, slot - 100),
  reason: null,
  rpcUrl: "http://127.0.0.1:8899",
  wsUrl: "ws://127.0.0.1:8900",
  ...overrides
})

/** Lets a test move the projection between states. */
export class ProjectionControl extends Context.Tag("test/ProjectionControl")<
  ProjectionControl,
  {
    readonly setStatus: (status: ProjectionStatus) => Effect.Effect<void>
    readonly publish: (batch: ProjectionChangeBatch) => Effect.Effect<void>
  }
>() {}

/**
 * A `Projection` whose status the test sets (`ProjectionControl`), over a given (by default empty)
 * state: reads succeed only while the status is live, like the real one.
 */
export const ProjectionTest = (
  options: { readonly initial?: ProjectionStatus; readonly state?: ProjectionState } = {}
): Layer.Layer<Projection | ProjectionControl> =>
  Layer.effectContext(
    Effect.gen(function*() {
      const status = yield* StatusCell.make(options.initial ?? startingStatus)
      const listeners = new Set<ProjectionChangeListener>()
      const state = options.state ?? new ProjectionState(NTBUNDLE_PROGRAM_ID)
      const readSync = <A>(read: (state: ProjectionState) => A): Either.Either<A, ProjectionUnavailable> =>
        isLive(status.current) ? Either.right(read(state)) : Either.left(ProjectionUnavailable.because(status.current.status))
      const projection = Projection.of({
        status: Effect.sync(() => status.current),
        currentStatus: () => status.current,
        requireLive: Effect.suspend(() => readSync(() => undefined)),
        read: (read) => Effect.suspend(() => readSync(read)),
        readSync,
        statusChanges: status.changes,
        listen: (listener) => {
          listeners.add(listener)
          return () => listeners.delete(listener)
        }
      })
      const control = ProjectionControl.of({
        setStatus: (next) => status.update(() => next),
        // Like the real writer: listeners run at once, and what they throw does not reach the caller.
        publish: (batch) =>
          Effect.forEach(listeners, (listener) => Effect.try(() => listener([batch])).pipe(Effect.ignoreLogged), { discard: true })
      })
      return Context.make(Projection, projection).pipe(Context.add(ProjectionControl, control))
    })
  )

