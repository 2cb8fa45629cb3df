import { Schema } from "effect"
import type { ActivityAmounts, ActivityItem } from "../../domain/userHistory/activityItem.ts"
import type { UserEvent } from "../../domain/userHistory/userEvent.ts"
import { RawAmount, TokenQuantity, tokenQuantity } from "../amounts.ts"
import { Address } from "../schemas.ts"

const ActivityType = Schema.Literal(
  "depositRequested",
  "depositProcessed",
  "depositRefunded",
  "withdrawalRequested",
  "withdrawalProcessed",
  "feesCharged",
  "switchRequested",
  "switchCompleted",
  "switchFellBackToWallet"
)

/** One user event of the feed (facts §10.8 "activity"). */
export const ActivityEntry = Schema.Struct({
  type: ActivityType,
  /** The program event it comes from, e.g. `Allocated`. */
  event: Schema.String,
  signature: Schema.String,
  /** Position of the event among the transaction's program data lines. */
  eventIndex: Schema.Int,
  slot: Schema.Int,
  blockTime: Schema.NullOr(Schema.Int),
  /** The vault; for a switch, its source. */
  vault: Schema.NullOr(Address),
  /** A switch's destination vault, else null. */
  targetVault: Schema.NullOr(Address),
  /** In the vault's asset (share counts with the asset's decimals); only the amounts the event carries. */
  amounts: Schema.Struct({
    gross: Schema.optional(TokenQuantity),
    fee: Schema.optional(TokenQuantity),
    net: Schema.optional(TokenQuantity),
    shares: Schema.optional(TokenQuantity),
    estimatedValue: Schema.optional(TokenQuantity)
  }),
  /** The share price the program applied (scaled by the asset's precision), else null. */
  sharePrice: Schema.NullOr(RawAmount)
}).annotations({ identifier: "ActivityEntry" })
export type ActivityEntry = typeof ActivityEntry.Type

export const ActivityPage = Schema.Struct({
  user: Address,
  /** The vault filter, or null for every vault. */
  vault: Schema.NullOr(Address),
  activity: Schema.Array(ActivityEntry),
  nextCursor: Schema.NullOr(Schema.String)
}).annotations({ identifier: "ActivityPage" })

const wireAmounts = (amounts: ActivityAmounts, decimals: number): ActivityEntry["amounts"] =>
  Object.fromEntries(Object.entries(amounts).map(([key, raw]) => [key, tokenQuantity(raw as bigint, decimals)]))

export const toActivityEntry = (event: UserEvent, item: ActivityItem, decimals: number): ActivityEntry => ({
  type: item.type,
  event: event.name,
  signature: event.signature,
  eventIndex: event.eventIndex,
  slot: event.slot,
  blockTime: event.blockTime,
  vault: item.vault as Address | null,
  targetVault: item.targetVault as Address | null,
  amounts: wireAmounts(item.amounts, decimals),
  sharePrice: item.sharePrice?.toString() ?? null
})
