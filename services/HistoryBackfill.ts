import { Context, type Effect } from "effect"

export interface BackfillProgress {
  readonly state: "pending" | "running" | "done"
  /** Transactions fetched and stored so far, and how many the listing found in all. */
  readonly done: number
  readonly total: number | null
  /**
   * Block time of the oldest transaction stored by the backfill; with `state: "done"` every day is
   * complete, otherwise only the days after this one are.
   */
  readonly oldestBlockTime: number | null
}

/** Fills the event log with the program's past transactions on a first start (resumable). */
export class HistoryBackfill extends Context.Tag("HistoryBackfill")<
  HistoryBackfill,
  { readonly progress: Effect.Effect<BackfillProgress> }
>() {}
