import type { IntervalHistogram } from "node:perf_hooks"
import type { ProjectionPhase, ProjectionStatus } from "../domain/status.ts"
import {
  chainTipSlot,
  checkpointAge,
  checkpointSlot,
  checkpointWrittenAt,
  eventLoopDelay,
  heapUsed,
  labelled,
  lagSeconds,
  lagSlots,
  NO_TAGS,
  projectionPhase,
  projectionSlot,
  residentMemory
} from "./instruments.ts"

const PHASES: ReadonlyArray<ProjectionPhase> = ["starting", "restoring", "catching_up", "live", "degraded"]
const phaseGauges = PHASES.map((phase) => [phase, labelled(projectionPhase, { phase })] as const)

/**
 * Sets the projection's gauges from its status at scrape time. Lag in seconds and the checkpoint's
 * age are computed from `nowSeconds`, so a projection that stops moving shows a growing lag rather
 * than the last value it published.
 */
export const refreshProjectionGauges = (status: ProjectionStatus, nowSeconds: number): void => {
  for (const [phase, gauge] of phaseGauges) gauge.update(status.status === phase ? 1 : 0)
  if (status.asOf !== null) projectionSlot.unsafeUpdate(status.asOf.slot, NO_TAGS)
  if (status.chainSlot !== null) chainTipSlot.unsafeUpdate(status.chainSlot, NO_TAGS)
  if (status.lagSlots !== null) lagSlots.unsafeUpdate(status.lagSlots, NO_TAGS)
  const blockTime = status.asOf?.blockTime ?? null
  if (blockTime !== null) lagSeconds.unsafeUpdate(Math.max(0, nowSeconds - blockTime), NO_TAGS)
  if (status.checkpointSlot !== null) checkpointSlot.unsafeUpdate(status.checkpointSlot, NO_TAGS)
  const writtenAt = checkpointWrittenAt.unsafeValue(NO_TAGS).value
  if (writtenAt > 0) checkpointAge.unsafeUpdate(Math.max(0, nowSeconds - writtenAt), NO_TAGS)
}

const delayGauges = (["p50", "p99", "max"] as const).map((stat) => [stat, labelled(eventLoopDelay, { stat })] as const)

/** Heap, RSS and the event-loop delay seen since the previous scrape (the histogram is reset). */
export const refreshProcessGauges = (delay: IntervalHistogram): void => {
  const memory = process.memoryUsage()
  heapUsed.unsafeUpdate(memory.heapUsed, NO_TAGS)
  residentMemory.unsafeUpdate(memory.rss, NO_TAGS)
  const seconds = (nanos: number) => (Number.isFinite(nanos) ? nanos / 1e9 : 0)
  for (const [quantile, gauge] of delayGauges) {
    const nanos = quantile === "max" ? delay.max : delay.percentile(quantile === "p50" ? 50 : 99)
    gauge.update(seconds(nanos))
  }
  delay.reset()
}
