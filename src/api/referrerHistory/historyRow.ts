import { Schema } from "effect"
import { legacyFlagNames } from "../../domain/history/legacyFlags.ts"
import type { ReferrerDailyRow } from "../../domain/history/referrerDailyRow.ts"
import { Amount, amount, RawAmount, TokenQuantity, tokenQuantity } from "../amounts.ts"
import { Address } from "../schemas.ts"

/** One UTC day of a builder in one vault (spec §2.6). */
export const ReferrerHistoryRow = Schema.Struct({
  date: Schema.String,
  vault: Address,
  /** True on the provisional row of the day in progress (includePartial=true). */
  partial: Schema.Boolean,
  /** Provisional rows: the chain time (unix seconds) they cover up to; null on completed days. */
  partialThrough: Schema.NullOr(Schema.Int),
  earnings: Schema.Struct({
    /** Fee shares accrued to the builder that day (ReferralFeesAccrued), management and performance. */
    mfeeShares: RawAmount,
    pfeeShares: RawAmount,
    totalShares: RawAmount,
    /** totalShares at the day's closing share price; null before the vault's first price. usd: no historical prices (null). */
    value: Schema.NullOr(Amount)
  }),
  /** The vault's closing share price that day (raw, carried over days without a price event). */
  closingSharePrice: Schema.NullOr(RawAmount),
  /** Shares of the bound cohort at the close, and their value at the closing share price (null before the first price). */
  attributedShares: RawAmount,
  attributedTvl: Schema.NullOr(Amount),
  /** Referred deposits allocated and withdrawals paid that day (keeper processing: the movements of the counter). */
  flowsIn: TokenQuantity,
  flowsOut: TokenQuantity,
  /** Users bound to the builder in the vault at the close. */
  attributedUsers: Schema.Int,
  /** The closing referred-net-deposit counter (signed; the last value an event reported, carried forward). */
  referredNetDeposits: TokenQuantity,
  /** "reconstructed" (rebuilt from the event log: the day began before the gateway was live), "referredNetDepositsUntracked". */
  legacyFlags: Schema.Array(Schema.String)
}).annotations({ identifier: "ReferrerHistoryRow" })
export type ReferrerHistoryRow = typeof ReferrerHistoryRow.Type

/** `decimals`: the vault asset's (null when the vault is unknown: values null, quantities in raw units). */
export const toHistoryRow = (row: ReferrerDailyRow, decimals: number | null): ReferrerHistoryRow => {
  const places = decimals ?? 0
  const valueOf = (shares: bigint) =>
    row.closingSharePrice === null || decimals === null ? null : amount((shares * row.closingSharePrice) / 10n ** BigInt(decimals), decimals, null)
  const earned = row.mfeeShares + row.pfeeShares
  return {
    date: row.date,
    vault: row.vault as Address,
    partial: row.partialThrough !== null,
    partialThrough: row.partialThrough,
    earnings: {
      mfeeShares: row.mfeeShares.toString(),
      pfeeShares: row.pfeeShares.toString(),
      totalShares: earned.toString(),
      value: valueOf(earned)
    },
    closingSharePrice: row.closingSharePrice?.toString() ?? null,
    attributedShares: row.cohortShares.toString(),
    attributedTvl: valueOf(row.cohortShares),
    flowsIn: tokenQuantity(row.flowsIn, places),
    flowsOut: tokenQuantity(row.flowsOut, places),
    attributedUsers: row.attributedUsers,
    referredNetDeposits: tokenQuantity(row.referredNetDeposits, places),
    legacyFlags: legacyFlagNames(row.legacyFlags)
  }
}
