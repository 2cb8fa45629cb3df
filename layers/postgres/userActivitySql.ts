import type { SqlClient } from "@effect/sql/SqlClient"
import { Effect } from "effect"
import type { LogKey, UserActivityEventName, UserEvent } from "../../services/UserActivity.ts"

export interface Row {
  readonly signature: string
  readonly event_index: number
  readonly slot: string | number
  readonly block_time: string | number | null
  readonly name: UserActivityEventName
  readonly vault: string | null
  readonly data: Readonly<Record<string, unknown>> | string
}

export const toUserEvent = (row: Row): UserEvent => ({
  signature: row.signature,
  eventIndex: row.event_index,
  slot: Number(row.slot),
  blockTime: row.block_time === null ? null : Number(row.block_time),
  name: row.name,
  vault: row.vault,
  data: typeof row.data === "string" ? JSON.parse(row.data) as Record<string, unknown> : row.data
})

/** Beyond every slot: an open upper bound. */
const NO_SLOT = Number.MAX_SAFE_INTEGER

/**
 * The first slot whose block time is at or after `time` (unix seconds), on the block-time index of
 * 0013; none: past the last stored transaction.
 */
export const firstSlotAt = (sql: SqlClient, time: number | null) =>
  time === null
    ? Effect.succeed(null)
    : Effect.map(
      sql<{ slot: string | number }>`
        SELECT slot FROM chain_transaction WHERE block_time >= ${time} ORDER BY block_time, slot LIMIT 1`,
      (rows) => (rows[0] === undefined ? NO_SLOT : Number(rows[0].slot))
    )

/** Keyset and bounds shared by the queries (a true fragment where a bound is absent). */
export const bounds = (sql: SqlClient, range: {
  readonly fromSlot: number | null
  readonly toSlot: number | null
  readonly from: number | null
  readonly to: number | null
  readonly before: LogKey | null
}) =>
  sql.and([
    range.fromSlot === null ? sql`TRUE` : sql`slot >= ${range.fromSlot}`,
    range.toSlot === null ? sql`TRUE` : sql`slot < ${range.toSlot}`,
    // the slot bounds come from chain order; the block times keep the day exact
    range.from === null ? sql`TRUE` : sql`block_time >= ${range.from}`,
    range.to === null ? sql`TRUE` : sql`block_time < ${range.to}`,
    range.before === null
      ? sql`TRUE`
      : sql`(slot, signature, event_index) < (${range.before.slot}, ${range.before.signature}, ${range.before.eventIndex})`
  ])

