import type { SqlError } from "@effect/sql/SqlError"
import { Context, type Effect } from "effect"
import type { ReferrerDailyRow } from "../src/domain/history/referrerDailyRow.ts"

export interface ReferrerDayQuery {
  readonly referrer: string
  /** Only this vault's rows; null: every vault. */
  readonly vault: string | null
  /** Inclusive bounds, `YYYY-MM-DD` (UTC). */
  readonly from: string | null
  readonly to: string
  /** Keyset: dates strictly after this one. */
  readonly after: string | null
  readonly limit: number
}

export interface ReferrerDayPage {
  /** Completed days, oldest first, then by vault; a date is never split across pages. */
  readonly rows: ReadonlyArray<ReferrerDailyRow>
  /** Whether rows after the page's last date exist (within the query's bounds). */
  readonly more: boolean
}

/** How far the stored daily rows reach. */
export interface HistoryCoverage {
  /** The newest UTC day closed for every vault and builder; null while none is (e.g. backfilling). */
  readonly closedThrough: string | null
  /** The chain time the provisional rows cover up to. */
  readonly coveredThrough: number | null
}

/** Daily builder rows per (referrer, vault), closed by the history rollup. */
export class ReferrerHistory extends Context.Tag("ReferrerHistory")<
  ReferrerHistory,
  {
    readonly coverage: Effect.Effect<HistoryCoverage, SqlError>
    readonly completedDays: (query: ReferrerDayQuery) => Effect.Effect<ReferrerDayPage, SqlError>
    /** The provisional rows of the day in progress (`partialThrough` set), by vault. */
    readonly provisional: (referrer: string, vault: string | null) => Effect.Effect<ReadonlyArray<ReferrerDailyRow>, SqlError>
  }
>() {}
