import { Schema } from "effect"
import type { DailyRow } from "../../domain/history/dailyRow.ts"
import type { UsdPrice } from "../../domain/usdPrice.ts"
import { Amount, amount, RawAmount, TokenQuantity, tokenQuantity } from "../amounts.ts"

/** One completed UTC day of a vault (closing values carried forward over days without a price event). */
export const Snapshot = Schema.Struct({
  date: Schema.String,
  closingSharePrice: Schema.NullOr(RawAmount),
  closingTotalShares: Schema.NullOr(RawAmount),
  /**
   * closingTotalShares × closingSharePrice / 10^decimals (floor); usd at closingAssetPrice, null when
   * that is null.
   */
  closingTvl: Schema.NullOr(Amount),
  /**
   * The deposit asset's USD price the gateway recorded at this day's close (the last fresh price it
   * observed before midnight). Null for days it did not see close, i.e. days before it ran (the
   * backfilled history) or with no fresh price near midnight: no historical price is invented.
   */
  closingAssetPrice: Schema.NullOr(Schema.Struct({
    usd: Schema.Number,
    /** Unix seconds the price feed published it. */
    publishTime: Schema.Int,
    slot: Schema.Int
  }).annotations({ identifier: "ClosingAssetPrice" })),
  depositsRequested: TokenQuantity,
  depositFees: TokenQuantity,
  withdrawalsPaid: TokenQuantity,
  withdrawalFees: TokenQuantity,
  feesCharged: TokenQuantity,
  events: Schema.Int
}).annotations({ identifier: "Snapshot" })
export type Snapshot = typeof Snapshot.Type

export const toSnapshot = (row: DailyRow, decimals: number, closePrice: UsdPrice | null = null): Snapshot => {
  const precision = 10n ** BigInt(decimals)
  const tvl = row.closingSharePrice === null || row.closingTotalShares === null
    ? null
    : (row.closingTotalShares * row.closingSharePrice) / precision
  return {
    date: row.date,
    closingSharePrice: row.closingSharePrice?.toString() ?? null,
    closingTotalShares: row.closingTotalShares?.toString() ?? null,
    closingTvl: tvl === null ? null : amount(tvl, decimals, closePrice?.usd ?? null),
    closingAssetPrice: closePrice === null ? null : { usd: closePrice.usd, publishTime: closePrice.publishTime, slot: closePrice.slot },
    depositsRequested: tokenQuantity(row.depositsRequested, decimals),
    depositFees: tokenQuantity(row.depositFees, decimals),
    withdrawalsPaid: tokenQuantity(row.withdrawalsPaid, decimals),
    withdrawalFees: tokenQuantity(row.withdrawalFees, decimals),
    feesCharged: tokenQuantity(row.feesCharged, decimals),
    events: row.events
  }
}
