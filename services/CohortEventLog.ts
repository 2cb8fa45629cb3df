import type { SqlError } from "@effect/sql/SqlError"
import { Context, type Effect } from "effect"

export type FlowKind = "deposit" | "withdrawal" | "refund"
export type FlowStage = "requested" | "processed"

/** Where a flow sits in the newest-first order: the keyset a page continues after. */
export interface FlowPosition {
  readonly slot: number
  readonly signature: string
  readonly eventIndex: number
}

/** One deposit, withdrawal or refund of a position bound to the builder, from the event log. */
export interface FlowRow extends FlowPosition {
  readonly vault: string
  readonly wallet: string
  readonly kind: FlowKind
  readonly stage: FlowStage
  /**
   * Asset minor units: the gross deposit (DepositRequested `gross_amount`, Allocated `amount`), a
   * processed withdrawal's `gross_amount` (Redeemed), the refunded amount, or, for a withdrawal
   * request, the program's estimate of its value (`estimated_pending_withdrawal_value`).
   */
  readonly amount: bigint
  readonly estimated: boolean
  /** Shares a withdrawal request asked to redeem; null for the other kinds and stages. */
  readonly shares: bigint | null
  /** The block time of the transaction, null when the node did not give one. */
  readonly blockTime: number | null
  /** The program's clock in the event. */
  readonly timestamp: bigint
}

export interface FlowQuery {
  readonly referrer: string
  /** Unix seconds, inclusive; null: no lower bound. */
  readonly from: number | null
  /** Unix seconds, exclusive; null: no upper bound. */
  readonly until: number | null
  /** Rows strictly older than this position (null: from the newest). */
  readonly after: FlowPosition | null
  readonly limit: number
}

/** A `UserReferrerSet` event: when a position was bound to the builder, and the rates it recorded. */
export interface Binding {
  readonly vault: string
  readonly wallet: string
  readonly slot: number
  /** Block time of the binding transaction, else the program's clock in the event (unix seconds). */
  readonly time: number
  /** Rates at binding: historical only, they do not drive accrual (spec §2.6). */
  readonly referralPfeeBps: number
  readonly referralMfeeBps: number
  readonly referralTierIndex: number | null
}

/**
 * What the event log knows about a builder's cohort: its flows newest first (slot, then signature,
 * then event index, all descending), the bindings of given positions, and whether the log holds the
 * program's whole history (else an answer could silently miss rows).
 */
export class CohortEventLog extends Context.Tag("CohortEventLog")<
  CohortEventLog,
  {
    readonly flows: (query: FlowQuery) => Effect.Effect<ReadonlyArray<FlowRow>, SqlError>
    /** The builder's bindings of these (vault, wallet) pairs, oldest first (one indexed query). */
    readonly bindings: (
      referrer: string,
      pairs: ReadonlyArray<{ readonly vault: string; readonly wallet: string }>
    ) => Effect.Effect<ReadonlyArray<Binding>, SqlError>
    /** True once the first-start history backfill has finished (it never goes back). */
    readonly historyComplete: Effect.Effect<boolean, SqlError>
  }
>() {}
