import type { SqlError } from "@effect/sql/SqlError"
import { Context, type Effect } from "effect"
import type { MetricsHistoryRecord } from "../src/domain/history/metricsHistory.ts"
import type { UsdPrice } from "../src/domain/usdPrice.ts"

/** A position in the event log's chain order. */
export interface EventKey {
  readonly slot: number
  readonly signature: string
  readonly eventIndex: number
}

/** A processing or fee event that moved a vault's share price, with the price after it. */
export interface SharePriceEvent extends EventKey {
  /** Unix seconds. */
  readonly blockTime: number
  /** `Allocated` (deposits processed), `Redeemed` (withdrawals processed) or `ChargedFeesToUser`. */
  readonly name: string
  /** Asset minor units per 10^decimals shares. */
  readonly sharePrice: bigint
}

export interface SharePriceEventQuery {
  readonly vault: string
  /** Block-time bounds, unix seconds: from inclusive (null: the start), below exclusive (null: no end). */
  readonly from: number | null
  readonly below: number | null
  /** Keyset: events strictly after this one (the last of the previous page). */
  readonly after: EventKey | null
  readonly limit: number
}

export interface DailyQuery {
  readonly vault: string
  /** Inclusive bounds, `YYYY-MM-DD` (UTC). */
  readonly from: string | null
  readonly to: string
  /** Keyset: rows strictly after this date. */
  readonly after: string | null
  readonly limit: number
}

/**
 * A vault's series beyond the daily rows: its share price at event resolution (from the event log),
 * the metrics recorded at each day's close, and the deposit assets' prices recorded at each close.
 */
export class VaultSeries extends Context.Tag("VaultSeries")<
  VaultSeries,
  {
    /**
     * Events that moved the share price (one whose price equals the one before it in chain order is
     * left out), oldest first; `more`: another one follows the page.
     */
    readonly sharePriceEvents: (
      query: SharePriceEventQuery
    ) => Effect.Effect<{ readonly events: ReadonlyArray<SharePriceEvent>; readonly more: boolean }, SqlError>
    /** Metrics rows recorded at each completed day's close, oldest first. */
    readonly metricsRows: (query: DailyQuery) => Effect.Effect<ReadonlyArray<MetricsHistoryRecord>, SqlError>
    /** The USD prices of `mint` recorded at the close of days in [from, to], by date. */
    readonly closePrices: (mint: string, from: string, to: string) => Effect.Effect<ReadonlyMap<string, UsdPrice>, SqlError>
  }
>() {}
