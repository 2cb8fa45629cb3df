import type { SqlError } from "@effect/sql/SqlError"
import { Context, type Effect } from "effect"

/** Where a payout sits in the newest-first order: the keyset a page continues after. */
export interface PayoutPosition {
  readonly slot: number
  readonly signature: string
  readonly eventIndex: number
}

/** One settled builder claim: a `ReferrerWithdrawalProcessed` event of the event log. */
export interface PayoutRow extends PayoutPosition {
  readonly vault: string
  readonly sharesRedeemed: bigint
  readonly redemptionAmount: bigint
  /** The block time of the settling transaction, null when the node did not give one. */
  readonly blockTime: number | null
  /** The program's clock at settlement (the event's `timestamp`). */
  readonly timestamp: bigint
}

export interface PayoutQuery {
  readonly referrer: string
  /** Rows strictly older than this position (null: from the newest). */
  readonly after: PayoutPosition | null
  readonly limit: number
}

/** Settled builder claims, newest first (slot, then signature, then event index, all descending). */
export class ReferrerPayouts extends Context.Tag("ReferrerPayouts")<
  ReferrerPayouts,
  { readonly page: (query: PayoutQuery) => Effect.Effect<ReadonlyArray<PayoutRow>, SqlError> }
>() {}
