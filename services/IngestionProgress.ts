import { Context } from "effect"
import type { BackfillProgress } from "./HistoryBackfill.ts"

/** The daily rollup: waiting (for the projection and the backfill), replaying the event log, or live. */
export interface RollupReport {
  readonly state: "waiting" | "replaying" | "live" | "failed"
  /** The last UTC day closed (`YYYY-MM-DD`), null before the first. */
  readonly closedThrough: string | null
}

export interface BackfillReport extends BackfillProgress {
  /** Transactions per second since this process started the backfill; null until measurable. */
  readonly ratePerSecond: number | null
  /** Seconds left at that rate; null when unknown. */
  readonly etaSeconds: number | null
}

export interface CheckpointReport {
  readonly slot: number
  /** Unix seconds when PostgreSQL confirmed it. */
  readonly writtenAt: number
}

/**
 * What the background work behind the projection reports for operators (`/status`): the history
 * backfill, the daily rollup and the last checkpoint written. Writers report as they go; readers
 * get the latest values and a version that moves with every report.
 */
export class IngestionProgress extends Context.Tag("IngestionProgress")<
  IngestionProgress,
  {
    readonly reportBackfill: (progress: BackfillProgress) => void
    readonly reportRollup: (rollup: RollupReport) => void
    readonly reportCheckpoint: (checkpoint: CheckpointReport) => void
    readonly backfill: () => BackfillReport | null
    readonly rollup: () => RollupReport | null
    readonly checkpoint: () => CheckpointReport | null
    /** Moves with every report: a reader may cache what it derived until it changes. */
    readonly version: () => number
  }
>() {}
