import { Context, Deferred, Effect, Either, Layer, Option, Stream } from "effect"
import { Projection, type ProjectionChangeListener } from "../../services/Projection.ts"
import { ProjectionUnavailable } from "../../src/domain/errors.ts"
import type { ProjectionState } from "../../src/domain/projection/state.ts"
import { startingStatus } from "./startingStatus.ts"

interface EarlyListener {
  readonly listener: ProjectionChangeListener
  stop: (() => void) | null
}

/**
 * Serves `Projection` at once while `ingestion` (chain connection, sandbox, restore) is still being
 * built in the background, so the HTTP server listens immediately and answers 503 until the
 * projection is live. `ingestion`'s resources close with this layer.
 */
export const ProjectionInBackground = <E, R>(ingestion: Layer.Layer<Projection, E, R>) =>
  Layer.scoped(
    Projection,
    Effect.gen(function*() {
      const ready = yield* Deferred.make<Projection["Type"]>()
      let failure: string | null = null
      const scope = yield* Effect.scope
      // Deferred.unsafePoll is not public; keep the built service in a variable for the sync paths.
      let built: Projection["Type"] | null = null
      // Listeners that came before ingestion was built: handed to it once it is.
      const early = new Set<EarlyListener>()
      yield* Effect.forkScoped(
        Layer.buildWithScope(ingestion, scope).pipe(
          Effect.flatMap((context) => {
            const projection = Context.get(context, Projection)
            built = projection
            for (const entry of early) entry.stop = projection.listen(entry.listener)
            early.clear()
            return Deferred.succeed(ready, projection)
          }),
          Effect.catchAllCause((cause) =>
            Effect.zipRight(
              Effect.sync(() => (failure = "the chain connection could not be set up; see the log")),
              Effect.logError("starting ingestion failed", cause)
            )
          )
        )
      )
      const whenReady = <A, E2>(use: (projection: Projection["Type"]) => Effect.Effect<A, E2>, otherwise: Effect.Effect<A, E2>) =>
        Effect.flatMap(Deferred.poll(ready), Option.match({ onNone: () => otherwise, onSome: Effect.flatMap(use) }))
      const status = Effect.suspend(() => Effect.succeed(startingStatus(failure ?? "connecting to the chain")))
      const unavailable = Effect.fail(ProjectionUnavailable.because("starting"))
      const service: Projection["Type"] = {
        status: whenReady((p) => p.status, status),
        requireLive: whenReady((p) => p.requireLive, unavailable),
        currentStatus: () => built?.currentStatus() ?? startingStatus(failure ?? "connecting to the chain"),
        read: <A>(read: (state: ProjectionState) => A) => whenReady((p) => p.read(read), unavailable),
        readSync: <A>(read: (state: ProjectionState) => A) =>
          built === null ? Either.left(ProjectionUnavailable.because("starting")) : built.readSync(read),
        statusChanges: Stream.concat(Stream.fromEffect(status), Stream.unwrap(Effect.map(Deferred.await(ready), (p) => p.statusChanges))),
        listen: (listener) => {
          if (built !== null) return built.listen(listener)
          const entry: EarlyListener = { listener, stop: null }
          early.add(entry)
          return () => {
            early.delete(entry)
            entry.stop?.()
          }
        }
      }
      return service
    })
  )
