import type { Address as SolanaAddress } from "@solana/kit"
import { Schema } from "effect"
import { addressBytesOf } from "../ntbundle/addressBytes.ts"
import { type BadRequestCode, BadRequestCodeId } from "./errors.ts"
import { UtcDate } from "./history/utcDate.ts"

/** Base58 text of 32 bytes is 32 to 44 characters; longer input is refused before decoding. */
const isAddressText = (value: string): value is SolanaAddress =>
  value.length >= 32 && value.length <= 44 && addressBytesOf(value) !== null

/** Base58 text of an address's length (the document's hint; the 32 bytes are checked on decode). */
export const ADDRESS_PATTERN = "^[1-9A-HJ-NP-Za-km-z]{32,44}$"

/**
 * A base58 Solana address (32 bytes). A path or query value that is not one is a 400 `INVALID_ADDRESS`.
 * Checked through the shared address memo: responses carry the same addresses over and over, and
 * kit's `isAddress` decodes each one with BigInt arithmetic every time.
 */
export const Address = Schema.String.pipe(
  Schema.filter(isAddressText, {
    message: () => "expected a base58 Solana address (32 bytes)"
  })
).annotations({
  identifier: "Address",
  description: "base58-encoded 32-byte Solana address",
  examples: ["11111111111111111111111111111111" as SolanaAddress],
  jsonSchema: { pattern: ADDRESS_PATTERN },
  [BadRequestCodeId]: "INVALID_ADDRESS" satisfies BadRequestCode
})
export type Address = typeof Address.Type

export const Slot = Schema.NonNegativeInt.annotations({ identifier: "Slot", description: "Solana slot" })

/** The chain position a response reflects (spec §2.1): not the time of the request. */
export const AsOf = Schema.Struct({
  slot: Slot,
  /** Unix seconds; null when the node reported no block time for that slot. */
  blockTime: Schema.NullOr(Schema.Int)
}).annotations({ identifier: "AsOf", description: "chain position (slot and its block time) the data reflects" })
export type AsOf = typeof AsOf.Type

/** `{success: true, data, asOf}`: the envelope of every read derived from chain state. */
export const chainEnvelope = <A, I, R>(data: Schema.Schema<A, I, R>) =>
  Schema.Struct({ success: Schema.Literal(true), data, asOf: AsOf })

/**
 * Freshness of the USD prices behind a body's `usd` values (facts §10.2): the slot the price update
 * was posted at and the price's publish time; the oldest one when several assets are valued; null
 * when no value in the body is priced.
 */
export const PriceAsOf = Schema.NullOr(
  Schema.Struct({
    slot: Slot,
    /** Unix seconds: when the price source published the price. */
    blockTime: Schema.Int
  })
).annotations({
  identifier: "PriceAsOf",
  description:
    "freshness of the USD price(s) behind the usd values: slot the price update was posted at and the price's publish " +
    "time (unix s); the oldest when several assets are valued; null when nothing in the answer is priced"
})
export type PriceAsOf = typeof PriceAsOf.Type

/** `{success: true, data, asOf, priceAsOf}`: a chain-state read with USD values. */
export const pricedEnvelope = <A, I, R>(data: Schema.Schema<A, I, R>) =>
  Schema.Struct({ success: Schema.Literal(true), data, asOf: AsOf, priceAsOf: PriceAsOf })

/** `{success: true, data}`: the envelope of a success that reflects no chain position. */
export const envelope = <A, I, R>(data: Schema.Schema<A, I, R>) => Schema.Struct({ success: Schema.Literal(true), data })

/** The shape every error body has (each error adds its own details). */
export const ErrorEnvelope = Schema.Struct({
  success: Schema.Literal(false),
  error: Schema.String,
  message: Schema.String
})
export type ErrorEnvelope = typeof ErrorEnvelope.Type

// -------------------------------------------------------------------------------------------------
// Query parameters. Each decodes as before (so a bad value keeps its 400 code); the `jsonSchema`
// annotation gives the document the parameter's real type and bounds, not the text it arrives as.

/** `limit`: an integer from 1 to 100. */
export const queryLimit = (defaultLimit: number) =>
  Schema.NumberFromString.pipe(Schema.int(), Schema.between(1, 100)).annotations({
    jsonSchema: {
      type: "integer",
      minimum: 1,
      maximum: 100,
      default: defaultLimit,
      description: `page size, 1 to 100 (default ${defaultLimit})`
    }
  })

/** `cursor`: the previous page's `nextCursor`, as is. */
export const QueryCursor = Schema.String.annotations({
  jsonSchema: { type: "string", description: "opaque: the nextCursor of the previous page, unchanged" }
})

/** A UTC calendar date `YYYY-MM-DD` that exists (2026-02-30 is a 400). */
export const QueryDate = UtcDate.annotations({
  jsonSchema: {
    type: "string",
    format: "date",
    pattern: "^[0-9]{4}-[0-9]{2}-[0-9]{2}$",
    description: "UTC calendar date YYYY-MM-DD (inclusive); an impossible date is a 400",
    examples: ["2026-09-01"]
  }
})

/** `true` or `false`. */
export const QueryBoolean = Schema.BooleanFromString.annotations({
  jsonSchema: { type: "string", enum: ["true", "false"], default: "false" }
})
