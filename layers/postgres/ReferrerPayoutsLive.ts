import { SqlClient } from "@effect/sql"
import { Effect, Layer } from "effect"
import { type PayoutRow, ReferrerPayouts } from "../../services/ReferrerPayouts.ts"

interface Row {
  readonly signature: string
  readonly event_index: number
  readonly slot: string | number
  readonly block_time: string | number | null
  readonly vault: string
  readonly shares: string
  readonly amount: string
  readonly ts: string
}

const toPayoutRow = (row: Row): PayoutRow => ({
  signature: row.signature,
  eventIndex: Number(row.event_index),
  slot: Number(row.slot),
  blockTime: row.block_time === null ? null : Number(row.block_time),
  vault: row.vault,
  sharesRedeemed: BigInt(row.shares),
  redemptionAmount: BigInt(row.amount),
  timestamp: BigInt(row.ts)
})

/** Payouts from `program_event` (index `program_event_referrer_payout_idx`, migration 0007). */
export const ReferrerPayoutsLive = Layer.effect(
  ReferrerPayouts,
  Effect.gen(function*() {
    const sql = yield* SqlClient.SqlClient
    return ReferrerPayouts.of({
      page: ({ after, limit, referrer }) =>
        Effect.map(
          sql<Row>`
            SELECT signature, event_index, slot, block_time, data->>'bundleAccountKey' AS vault,
              data->>'sharesRedeemed' AS shares, data->>'redemptionAmount' AS amount, data->>'timestamp' AS ts
            FROM program_event
            WHERE name = 'ReferrerWithdrawalProcessed' AND data->>'referrer' = ${referrer}
              ${after === null ? sql`` : sql`AND (slot, signature, event_index) < (${after.slot}::bigint, ${after.signature}, ${after.eventIndex}::integer)`}
            ORDER BY slot DESC, signature DESC, event_index DESC
            LIMIT ${limit}`,
          (rows) => rows.map(toPayoutRow)
        )
    })
  })
)
