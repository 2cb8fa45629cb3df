import type { SqlError } from "@effect/sql/SqlError"
import { Context, type Effect } from "effect"

/** The request lifecycle events of one position, as the event log holds them. */
export type RequestEventName = "DepositRequested" | "Allocated" | "RefundedDeposit" | "WithdrawalRequested" | "Redeemed"

export interface RequestEvent {
  readonly name: RequestEventName
  readonly slot: number
  /** Block time of the transaction, null when the node gave none. */
  readonly blockTime: number | null
  /** The decoded event (camelCase fields, 64/128-bit integers as decimal strings). */
  readonly data: Readonly<Record<string, unknown>>
}

export interface PositionRequestLog {
  /** Newest first (slot, signature, event index descending). */
  readonly events: ReadonlyArray<RequestEvent>
  /** False while the history backfill still loads older events. */
  readonly complete: boolean
}

/**
 * A position's deposit and withdrawal requests and their settlement (keeper processing or refund),
 * from the event log: what the UserBundleAccount alone does not keep (gross amounts, fees, when a
 * request was made, how it ended).
 */
export class PositionRequests extends Context.Tag("PositionRequests")<
  PositionRequests,
  {
    /** The position's newest `limit` request events (one indexed query). */
    readonly recent: (vault: string, wallet: string, limit: number) => Effect.Effect<PositionRequestLog, SqlError>
  }
>() {}
