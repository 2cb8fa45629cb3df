import { Effect, Layer, Schedule } from "effect"
import { Projection } from "../../services/Projection.ts"
import { StatusHistory } from "../../services/StatusHistory.ts"
import { Traffic } from "../../services/Traffic.ts"
import { StatusSeries } from "../../src/domain/statusSeries.ts"

/**
 * Samples the projection's status and the transport's traffic every `intervalSeconds` (10 s by
 * default) into a ring buffer holding `windowSeconds` (an hour). Nothing is stored: a restart starts
 * an empty history.
 */
export const StatusHistoryLive = (options: { readonly intervalSeconds?: number; readonly windowSeconds?: number } = {}) =>
  Layer.scoped(
    StatusHistory,
    Effect.gen(function*() {
      const intervalSeconds = options.intervalSeconds ?? 10
      const projection = yield* Projection
      const traffic = yield* Traffic
      const series = new StatusSeries(Math.ceil((options.windowSeconds ?? 3600) / intervalSeconds))
      const sample = Effect.sync(() => series.record(projection.currentStatus(), traffic.read(), Date.now()))
      yield* sample.pipe(Effect.repeat(Schedule.spaced(`${intervalSeconds} seconds`)), Effect.forkScoped)
      return { intervalSeconds, samples: () => series.samples() }
    })
  )
