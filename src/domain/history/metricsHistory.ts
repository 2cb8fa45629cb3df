import type { DayRows } from "./referrerDailyRow.ts"
import { type DailyClose, type FeeSchedule, yieldMetrics, type YieldMetrics } from "./yieldMetrics.ts"

/**
 * How a metrics-history row came to be: `atClose` when the rollup computed it as it closed the day
 * while following the chain; `backfill` when it was computed later from the day's stored data (days
 * that ended before the gateway first served live, or were closed before metrics were recorded),
 * with the fee schedule of the time it was computed.
 */
export type MetricsDerivation = "atClose" | "backfill"

/** One vault's `/metrics` figures as computed for one completed UTC day. */
export interface MetricsHistoryRecord extends YieldMetrics {
  readonly vault: string
  readonly date: string
  /** The schedule the after-fees figures deducted; null when the vault's account was not known then. */
  readonly fees: FeeSchedule | null
  /** closing shares × closing share price / 10^decimals (floor); null without both or the decimals. */
  readonly closingTvl: bigint | null
  /** The asset's USD price recorded at the day's close (null: none observed then). */
  readonly assetUsd: number | null
  readonly historyDays: number
  readonly derivation: MetricsDerivation
  /** Chain time (unix seconds) the row was computed at. */
  readonly computedAt: number
}

/** What the rollup knows about a vault when it computes a day's row (from the projection). */
export interface VaultAtClose {
  readonly fees: FeeSchedule
  readonly decimals: number
  readonly mint: string
}

export interface MetricsContext {
  readonly vaultOf: (vault: string) => VaultAtClose | null
  /** USD per token of `mint` at the close of the day being computed (null: none observed). */
  readonly usdAtClose: (mint: string) => number | null
  readonly derivation: MetricsDerivation
  readonly computedAt: number
}

/**
 * The closing share prices of every vault, day by day as the rollup closes them, and each day's
 * metrics row computed from the closes up to that day (the same figures `/metrics` computes from
 * the stored rows).
 */
export class MetricsBook {
  private readonly closes = new Map<string, Array<DailyClose>>()

  /** Adds a completed day's closes; days come in order, each once. */
  addDay(day: DayRows): void {
    for (const row of day.vaults) {
      if (row.closingSharePrice === null) continue
      let closes = this.closes.get(row.vault)
      if (closes === undefined) {
        closes = []
        this.closes.set(row.vault, closes)
      }
      closes.push({ date: day.date, sharePrice: row.closingSharePrice })
    }
  }

  /** The metrics rows of `day`, which must be the last day added. */
  rowsOf(day: DayRows, context: MetricsContext): Array<MetricsHistoryRecord> {
    return day.vaults.map((row) => {
      const closes = this.closes.get(row.vault) ?? []
      const vault = context.vaultOf(row.vault)
      // Without the vault's schedule the after-fees figures deduct nothing: say so with fees null.
      const metrics = yieldMetrics(closes, vault?.fees ?? { managementFeeBps: 0, performanceFeeBps: 0 })
      const tvl = vault === null || row.closingSharePrice === null || row.closingTotalShares === null
        ? null
        : (row.closingTotalShares * row.closingSharePrice) / 10n ** BigInt(vault.decimals)
      const usd = vault === null ? null : context.usdAtClose(vault.mint)
      return {
        vault: row.vault,
        date: day.date,
        ...(vault === null
          ? { ...metrics, apy7dAfterFees: null, apy30dAfterFees: null, apyInceptionAfterFees: null }
          : metrics),
        fees: vault?.fees ?? null,
        closingTvl: tvl,
        assetUsd: usd,
        historyDays: closes.length,
        derivation: context.derivation,
        computedAt: context.computedAt
      }
    })
  }
}
