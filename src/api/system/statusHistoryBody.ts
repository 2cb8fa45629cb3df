import { Schema } from "effect"
import type { StatusSample } from "../../domain/statusSeries.ts"
import { ProjectionPhase } from "./statusBody.ts"

const StatusSampleSchema = Schema.Struct({
  at: Schema.Int.annotations({ description: "Unix seconds" }),
  status: ProjectionPhase,
  lagSlots: Schema.NullOr(Schema.Int),
  lagSeconds: Schema.NullOr(Schema.Number).annotations({ description: "Seconds between `at` and the block time of the projected slot" }),
  requestsPerSecond: Schema.Number.annotations({ description: "HTTP requests received per second since the previous sample" }),
  wsConnections: Schema.Int.annotations({ description: "WebSocket connections open at `at`" })
}).annotations({ identifier: "StatusSample" })

/** `/status/history`: the last hour sampled in memory (empty after a restart), oldest first. */
export const StatusHistoryBody = Schema.Struct({
  intervalSeconds: Schema.Int,
  samples: Schema.Array(StatusSampleSchema)
}).annotations({ identifier: "StatusHistory" })
export type StatusHistoryBody = typeof StatusHistoryBody.Type

export const toStatusHistoryBody = (intervalSeconds: number, samples: ReadonlyArray<StatusSample>): StatusHistoryBody => ({
  intervalSeconds,
  samples
})
