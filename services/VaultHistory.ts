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

/** Per vault: what processing credited to positions, and what it paid out of them. */
export interface CapitalFlows {
  /** `Allocated.net_amount` (deposits processed into shares, net of the deposit fee) + switches credited in. */
  readonly deposited: bigint
  /** `Redeemed.gross_amount` (withdrawals processed, before the withdrawal fee) + switches redeemed out. */
  readonly withdrawn: bigint
}

export interface CapitalFlowTotals {
  /** False while the history backfill still loads older events: the sums are then partial. */
  readonly complete: boolean
  readonly byVault: ReadonlyMap<string, CapitalFlows>
}

/**
 * Daily history of a vault: the completed UTC days the history rollup closed from the program's
 * events (`vault_daily`); a day not closed yet is absent.
 */
export class VaultHistory extends Context.Tag("VaultHistory")<
  VaultHistory,
  {
    readonly dailyRows: (query: DailyRowQuery) => Effect.Effect<ReadonlyArray<DailyRow>, SqlError>
    /**
     * Capital moved into and out of positions per vault over the whole event log, and whether the
     * log is complete (the history backfill has finished).
     */
    readonly capitalFlows: Effect.Effect<CapitalFlowTotals, SqlError>
  }
>() {}
