import { Schema } from "effect"
import type { PositionDay } from "../../domain/userHistory/positionDays.ts"
import { RawAmount, TokenQuantity, tokenQuantity } from "../amounts.ts"
import { Address } from "../schemas.ts"
import { AssetInfo } from "../vaults/VaultRecord.ts"

/** One UTC day of a position (amounts raw in the vault's asset; shares with the asset's decimals). */
export const PositionDayRow = Schema.Struct({
  date: Schema.String,
  /** The provisional day in progress (includePartial=true), as of the answer's asOf. */
  partial: Schema.Boolean,
  /** Shares the account holds at the close, as the balance route counts them. */
  shares: TokenQuantity,
  /** Shares locked in a withdrawal request at the close: still the user's until processed. */
  pendingWithdrawalShares: TokenQuantity,
  /** The vault's closing share price of the day (the provisional day: the current price); null before the first. */
  closingSharePrice: Schema.NullOr(RawAmount),
  /** (shares + pendingWithdrawalShares) × closingSharePrice / 10^decimals; null without a price. */
  closingValue: Schema.NullOr(TokenQuantity),
  /** Net deposits credited into shares that day (after the deposit fee). */
  deposited: TokenQuantity,
  /** Withdrawals redeemed that day (gross, before the withdrawal fee). */
  withdrawn: TokenQuantity,
  /** deposited − withdrawn (signed). */
  netDeposits: TokenQuantity,
  feesPaid: Schema.Struct({
    deposit: TokenQuantity,
    withdrawal: TokenQuantity,
    /** Management and performance fees charged in shares, at their value. */
    charged: TokenQuantity,
    total: TokenQuantity
  }),
  /** closingValue − the previous day's closingValue − netDeposits (signed); null when either value is. */
  earnings: Schema.NullOr(TokenQuantity)
}).annotations({ identifier: "PositionDayRow" })
export type PositionDayRow = typeof PositionDayRow.Type

export const PositionHistoryPage = Schema.Struct({
  bundleKey: Address,
  user: Address,
  asset: AssetInfo,
  /** The last completed UTC day (at the asOf block time). */
  throughDate: Schema.String,
  history: Schema.Array(PositionDayRow),
  nextCursor: Schema.NullOr(Schema.String)
}).annotations({ identifier: "PositionHistoryPage" })

export const toPositionDayRow = (day: PositionDay, decimals: number, partial: boolean): PositionDayRow => {
  const q = (raw: bigint) => tokenQuantity(raw, decimals)
  const { flows } = day
  return {
    date: day.date,
    partial,
    shares: q(day.holding.shares),
    pendingWithdrawalShares: q(day.holding.pendingShares),
    closingSharePrice: day.sharePrice?.toString() ?? null,
    closingValue: day.value === null ? null : q(day.value),
    deposited: q(flows.deposited),
    withdrawn: q(flows.withdrawn),
    netDeposits: q(flows.deposited - flows.withdrawn),
    feesPaid: {
      deposit: q(flows.depositFees),
      withdrawal: q(flows.withdrawalFees),
      charged: q(flows.feesCharged),
      total: q(flows.depositFees + flows.withdrawalFees + flows.feesCharged)
    },
    earnings: day.earnings === null ? null : q(day.earnings)
  }
}
