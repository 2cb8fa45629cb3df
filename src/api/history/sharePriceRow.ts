import { Schema } from "effect"
import type { SharePriceEvent } from "../../../services/VaultSeries.ts"
import { formatTokenAmount, RawAmount } from "../amounts.ts"

/** A price per share, exact: never a float. */
export const SharePrice = Schema.Struct({
  /** Asset minor units per 10^decimals shares (the program's share price, facts §6). */
  raw: RawAmount,
  /** The same as asset tokens per share, an exact decimal string. */
  token: Schema.String
}).annotations({
  identifier: "SharePrice",
  description: "raw: asset minor units per 10^decimals shares (an integer string); token: asset tokens per share (exact decimal string)"
})
export type SharePrice = typeof SharePrice.Type

export const sharePriceOf = (raw: bigint, decimals: number): SharePrice => ({ raw: raw.toString(), token: formatTokenAmount(raw, decimals) })

/** The processing or fee event behind an event-resolution point. */
export const PriceEvent = Schema.Struct({
  name: Schema.Literal("Allocated", "Redeemed", "ChargedFeesToUser"),
  signature: Schema.String,
  slot: Schema.Int,
  eventIndex: Schema.Int,
  /** Unix seconds. */
  blockTime: Schema.Int
}).annotations({ identifier: "SharePriceEventRef" })

export const SharePricePoint = Schema.Struct({
  /** UTC day: the day closed (day resolution) or the event's day. */
  date: Schema.String,
  /**
   * Day resolution: the day's closing price (null before the vault's first price). Event resolution:
   * the price the event reports, the one the processing or fee charge was computed at from the
   * vault's accounts (a fee charge leaves it as it is; rounding of a processing may move it by a unit).
   */
  sharePrice: Schema.NullOr(SharePrice),
  /** Event resolution: the event that moved the price; null at day resolution. */
  event: Schema.NullOr(PriceEvent)
}).annotations({ identifier: "SharePricePoint" })
export type SharePricePoint = typeof SharePricePoint.Type

export const eventPoint = (event: SharePriceEvent, date: string, decimals: number): SharePricePoint => ({
  date,
  sharePrice: sharePriceOf(event.sharePrice, decimals),
  event: {
    name: event.name as "Allocated" | "Redeemed" | "ChargedFeesToUser",
    signature: event.signature,
    slot: event.slot,
    eventIndex: event.eventIndex,
    blockTime: event.blockTime
  }
})
