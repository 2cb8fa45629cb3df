import { Schema } from "effect"
import type { windowEarnings } from "../../domain/userHistory/positionDays.ts"
import { Amount, amount, TokenQuantity, tokenQuantity } from "../amounts.ts"
import { Address } from "../schemas.ts"
import { AssetInfo } from "../vaults/VaultRecord.ts"

export const EARNINGS_METHOD =
  "earnings = value at the end − value at the start − net flows in the window. The window is whole UTC days, " +
  "startDate 00:00 to endDate 24:00 (both inclusive; defaults: the position's first day, the last completed day; an " +
  "endDate after the last completed day is cut to it). A value is the position's shares, those locked in a pending " +
  "withdrawal included, times the vault's closing share price of the day (the last price the program applied that day " +
  "or before, as in the snapshots): the start value at the close of the day before startDate, the end value at the " +
  "close of endDate. Net flows are counted at the position: deposits as the net amount credited into shares (after the " +
  "deposit fee), withdrawals as the gross amount redeemed (before the withdrawal fee). So management and performance " +
  "fees (charged in shares) lower the earnings, while deposit and withdrawal fees are listed in feesPaid and do not. " +
  "Earnings equal the sum of the position history's daily earnings over the same days. usd values the earnings at the " +
  "current price (null without a fresh one)."

/** One position's earnings over the window. */
export const VaultEarnings = Schema.Struct({
  bundleKey: Address,
  user: Address,
  asset: AssetInfo,
  startDate: Schema.String,
  endDate: Schema.String,
  /** At the close of the day before startDate (0 before the position's first deposit); null without a price. */
  startValue: Schema.NullOr(TokenQuantity),
  /** At the close of endDate; null without a price. */
  endValue: Schema.NullOr(TokenQuantity),
  deposited: TokenQuantity,
  withdrawn: TokenQuantity,
  netDeposits: TokenQuantity,
  /** Deposit, withdrawal, management and performance fees of the window. */
  feesPaid: TokenQuantity,
  earnings: Schema.NullOr(Amount)
}).annotations({ identifier: "VaultEarnings" })
export type VaultEarnings = typeof VaultEarnings.Type

export const WalletEarnings = Schema.Struct({
  user: Address,
  /** The window asked for (null: each position from its first day). */
  startDate: Schema.NullOr(Schema.String),
  endDate: Schema.String,
  positions: Schema.Array(VaultEarnings),
  /** Per deposit asset: the sum of the positions' earnings (null when one of them is null). */
  totals: Schema.Array(Schema.Struct({ asset: AssetInfo, earnings: Schema.NullOr(Amount) }))
}).annotations({ identifier: "WalletEarnings" })
export type WalletEarnings = typeof WalletEarnings.Type

export const toVaultEarnings = (
  ids: { readonly vault: string; readonly wallet: string; readonly asset: AssetInfo; readonly startDate: string; readonly endDate: string },
  totals: ReturnType<typeof windowEarnings>,
  usd: number | null
): VaultEarnings => {
  const q = (raw: bigint) => tokenQuantity(raw, ids.asset.decimals)
  const { flows } = totals
  return {
    bundleKey: ids.vault as Address,
    user: ids.wallet as Address,
    asset: ids.asset,
    startDate: ids.startDate,
    endDate: ids.endDate,
    startValue: totals.startValue === null ? null : q(totals.startValue),
    endValue: totals.endValue === null ? null : q(totals.endValue),
    deposited: q(flows.deposited),
    withdrawn: q(flows.withdrawn),
    netDeposits: q(flows.deposited - flows.withdrawn),
    feesPaid: q(flows.depositFees + flows.withdrawalFees + flows.feesCharged),
    earnings: totals.earnings === null ? null : amount(totals.earnings, ids.asset.decimals, usd)
  }
}

/** Per-asset sums of the positions' earnings. */
export const earningsTotals = (positions: ReadonlyArray<VaultEarnings>, usdOf: (mint: string) => number | null): WalletEarnings["totals"] => {
  const byMint = new Map<string, { asset: AssetInfo; raw: bigint | null }>()
  for (const position of positions) {
    const total = byMint.get(position.asset.mint) ?? { asset: position.asset, raw: 0n }
    total.raw = total.raw === null || position.earnings === null ? null : total.raw + BigInt(position.earnings.raw)
    byMint.set(position.asset.mint, total)
  }
  return [...byMint.values()].map(({ asset, raw }) => ({
    asset,
    earnings: raw === null ? null : amount(raw, asset.decimals, usdOf(asset.mint))
  }))
}
