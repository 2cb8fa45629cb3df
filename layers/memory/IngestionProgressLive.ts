import { Layer } from "effect"
import type { BackfillProgress } from "../../services/HistoryBackfill.ts"
import { type BackfillReport, type CheckpointReport, IngestionProgress, type RollupReport } from "../../services/IngestionProgress.ts"

/** Rate and ETA from the first running report seen: it covers what this process fetched itself. */
const withRate = (progress: BackfillProgress, start: { at: number; done: number } | null, nowMs: number): BackfillReport => {
  const elapsedSeconds = start === null ? 0 : (nowMs - start.at) / 1000
  const fetched = start === null ? 0 : progress.done - start.done
  const ratePerSecond = progress.state === "running" && elapsedSeconds >= 1 && fetched > 0 ? fetched / elapsedSeconds : null
  const left = progress.total === null ? null : Math.max(0, progress.total - progress.done)
  const etaSeconds = progress.state === "done" ? 0 : ratePerSecond === null || left === null ? null : Math.ceil(left / ratePerSecond)
  return { ...progress, ratePerSecond, etaSeconds }
}

export const makeIngestionProgress = (now: () => number = Date.now): IngestionProgress["Type"] => {
  let version = 0
  let backfill: BackfillProgress | null = null
  let backfillStart: { at: number; done: number } | null = null
  let rollup: RollupReport | null = null
  let checkpoint: CheckpointReport | null = null
  return {
    reportBackfill: (progress) => {
      if (progress.state === "running" && backfillStart === null) backfillStart = { at: now(), done: progress.done }
      backfill = progress
      version++
    },
    reportRollup: (report) => {
      rollup = report
      version++
    },
    reportCheckpoint: (report) => {
      checkpoint = report
      version++
    },
    backfill: () => (backfill === null ? null : withRate(backfill, backfillStart, now())),
    rollup: () => rollup,
    checkpoint: () => checkpoint,
    version: () => version
  }
}

export const IngestionProgressLive = Layer.sync(IngestionProgress, () => makeIngestionProgress())
