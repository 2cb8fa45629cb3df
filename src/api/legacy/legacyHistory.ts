import { Schema } from "effect"
import { type DailyRow, dailyCloses } from "../../domain/history/dailyRow.ts"
import { maxDrawdown, sharpe30d, windowReturn } from "../../domain/history/yieldMetrics.ts"
import type { VaultView } from "../../domain/projection/state.ts"
import { valuationOf } from "../../domain/vaultValuation.ts"
import { formatTokenAmount } from "../amounts.ts"

const N = Schema.NullOr(Schema.Number)

/**
 * The v1 `VaultMetrics` (facts §11) with JSON numbers. Rates are percentages (v1 convention, as its
 * fees), APRs not APYs: `apr` over the last 30 days (`aprDayApplied`), `roi` since the first
 * close. Figures v1 took from sources we do not have (strategy yields, allocations, USD TVL, targets)
 * are null or false.
 */
export const LegacyVaultMetrics = Schema.Struct({
  vaultId: Schema.Int,
  name: Schema.String,
  apr: N,
  aprDayApplied: N,
  aprAfterFees: N,
  yieldApr: N,
  yieldAprAfterFees: N,
  sharpeRatio: N,
  currentTVLUSD: N,
  currentTVLInToken: N,
  maxDrawdown: N,
  roi: N,
  roi30d: N,
  roiSince: Schema.NullOr(Schema.String),
  allocations: Schema.Null,
  dateFromSnapshot: Schema.String,
  isAprTargeted: Schema.Boolean,
  isMaxDrawdownTargeted: Schema.Boolean,
  isSharpeRatioTargeted: Schema.Boolean
}).annotations({ identifier: "LegacyVaultMetrics" })
export type LegacyVaultMetrics = typeof LegacyVaultMetrics.Type

/** The v1 `DailySnapshot`: token-unit numbers; days before the vault's first price are left out. */
export const LegacyDailySnapshot = Schema.Struct({
  date: Schema.String,
  tvl: Schema.Number,
  pps: Schema.Number,
  /** No share-price offset exists on this program: equal to `pps`. */
  pps_before_offset: Schema.Number,
  shares: Schema.Number,
  isBacktest: Schema.Boolean
}).annotations({ identifier: "LegacyDailySnapshot" })
export type LegacyDailySnapshot = typeof LegacyDailySnapshot.Type

const percent = (fraction: number | null | undefined): number | null => (fraction === null || fraction === undefined ? null : fraction * 100)
const tokens = (raw: bigint, decimals: number): number => Number(formatTokenAmount(raw, decimals))

export const toLegacyMetrics = (
  id: number,
  name: string,
  view: VaultView,
  rows: ReadonlyArray<DailyRow>,
  throughDate: string
): LegacyVaultMetrics => {
  const closes = dailyCloses(rows)
  const fees = { managementFeeBps: view.bundle.managementFeeBps, performanceFeeBps: view.bundle.performanceFee }
  const month = windowReturn(closes, 30, fees)
  const inception = windowReturn(closes, null, fees)
  const valuation = valuationOf(view)
  return {
    vaultId: id,
    name,
    apr: percent(month?.apr),
    aprDayApplied: month === null ? null : 30,
    aprAfterFees: percent(month?.aprAfterFees),
    yieldApr: null,
    yieldAprAfterFees: null,
    sharpeRatio: sharpe30d(closes),
    currentTVLUSD: null,
    currentTVLInToken: valuation === null ? null : tokens(valuation.totalEquity, view.bundle.assetDecimals),
    maxDrawdown: percent(maxDrawdown(closes)),
    roi: percent(inception?.change),
    roi30d: percent(month?.change),
    roiSince: inception?.startDate ?? null,
    allocations: null,
    dateFromSnapshot: throughDate,
    isAprTargeted: false,
    isMaxDrawdownTargeted: false,
    isSharpeRatioTargeted: false
  }
}

export const toLegacySnapshots = (rows: ReadonlyArray<DailyRow>, decimals: number): Array<LegacyDailySnapshot> => {
  const precision = 10n ** BigInt(decimals)
  return rows.flatMap((row) => {
    if (row.closingSharePrice === null || row.closingTotalShares === null) return []
    const pps = tokens(row.closingSharePrice, decimals)
    return [{
      date: row.date,
      tvl: tokens((row.closingTotalShares * row.closingSharePrice) / precision, decimals),
      pps,
      pps_before_offset: pps,
      shares: tokens(row.closingTotalShares, decimals),
      isBacktest: false
    }]
  })
}
