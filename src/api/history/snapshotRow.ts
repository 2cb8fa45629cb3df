import { Schema } from "effect"
import type { DailyRow } from "../../domain/history/dailyRow.ts"
import { Amount, amount, RawAmount, TokenQuantity, tokenQuantity } from "../amounts.ts"

/** One completed UTC day of a vault (closing values carried forward over days without a price event). */
export const Snapshot = Schema.Struct({
  date: Schema.String,
  closingSharePrice: Schema.NullOr(RawAmount),
  closingTotalShares: Schema.NullOr(RawAmount),
  /** closingTotalShares × closingSharePrice / 10^decimals (floor); usd null: no historical prices yet. */
  closingTvl: Schema.NullOr(Amount),
  depositsRequested: TokenQuantity,
  depositFees: TokenQuantity,
  withdrawalsPaid: TokenQuantity,
  withdrawalFees: TokenQuantity,
  feesCharged: TokenQuantity,
  events: Schema.Int
}).annotations({ identifier: "Snapshot" })
export type Snapshot = typeof Snapshot.Type

export const toSnapshot = (row: DailyRow, decimals: number): Snapshot => {
  const precision = 10n ** BigInt(decimals)
  const tvl = row.closingSharePrice === null || row.closingTotalShares === null
    ? null
    : (row.closingTotalShares * row.closingSharePrice) / precision
  return {
    date: row.date,
    closingSharePrice: row.closingSharePrice?.toString() ?? null,
    closingTotalShares: row.closingTotalShares?.toString() ?? null,
    closingTvl: tvl === null ? null : amount(tvl, decimals, null),
    depositsRequested: tokenQuantity(row.depositsRequested, decimals),
    depositFees: tokenQuantity(row.depositFees, decimals),
    withdrawalsPaid: tokenQuantity(row.withdrawalsPaid, decimals),
    withdrawalFees: tokenQuantity(row.withdrawalFees, decimals),
    feesCharged: tokenQuantity(row.feesCharged, decimals),
    events: row.events
  }
}
