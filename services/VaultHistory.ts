import type { SqlError } from "@effect/sql/SqlError"
import { Context, type Effect } from "effect"
import type { DailyRow } from "../src/domain/history/dailyRow.ts"

export interface DailyRowQuery {
  readonly vault: string
  /** Inclusive bounds, `YYYY-MM-DD` (UTC). */
  readonly from: string | null
  readonly to: string
  /** Keyset: rows strictly after this date. */
  readonly after: string | null
  readonly limit: number
}

/**
 * Daily history of a vault: the completed UTC days the history rollup closed from the program's
 * events (`vault_daily`); a day not closed yet is absent.
 */
export class VaultHistory extends Context.Tag("VaultHistory")<
  VaultHistory,
  {
    readonly dailyRows: (query: DailyRowQuery) => Effect.Effect<ReadonlyArray<DailyRow>, SqlError>
    /** Sum of `DepositRequested` gross amounts per vault over the whole event log. */
    readonly depositTotals: Effect.Effect<ReadonlyMap<string, bigint>, SqlError>
  }
>() {}
