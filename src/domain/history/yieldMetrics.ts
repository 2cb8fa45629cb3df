/**
 * Yield figures from daily closing share prices (facts §10.7 methodology): APR =
 * ((PPS_end − PPS_start) / PPS_start) × 365 / days; APY = (1 + APR/365)^365 − 1; decimal fractions.
 * Share prices are gross of management and performance fees (the keeper takes those as shares from
 * each position, which leaves the price unchanged), so "after fees" deducts the vault's current
 * schedule: performance fee on a positive return, then the annual management fee. That is an
 * estimate for a position that paid fees over the whole window.
 */

export interface DailyClose {
  /** `YYYY-MM-DD` */
  readonly date: string
  readonly sharePrice: bigint
}

export interface FeeSchedule {
  readonly managementFeeBps: number
  readonly performanceFeeBps: number
}

export interface YieldMetrics {
  readonly apy7d: number | null
  readonly apy7dAfterFees: number | null
  readonly apy30d: number | null
  readonly apy30dAfterFees: number | null
  readonly apyInception: number | null
  readonly apyInceptionAfterFees: number | null
  /** Largest peak-to-trough fall of the closing price over the whole history (a positive fraction). */
  readonly maxDrawdown: number | null
  /** Mean / standard deviation of the last 30 daily returns × √365 (risk-free rate 0). */
  readonly sharpeRatio30d: number | null
}

const DAY_MS = 86_400_000
const dayNumber = (date: string): number => Date.parse(`${date}T00:00:00Z`) / DAY_MS

/** The price ratio end/start as a float, exact enough for rates (prices are u128 raw values). */
const ratio = (end: bigint, start: bigint): number => {
  const scale = 1_000_000_000_000n
  return Number((end * scale) / start) / Number(scale)
}

const aprToApy = (apr: number): number => Math.pow(1 + apr / 365, 365) - 1

const aprAfterFees = (apr: number, fees: FeeSchedule): number =>
  (apr > 0 ? apr * (1 - fees.performanceFeeBps / 10_000) : apr) - fees.managementFeeBps / 10_000

export interface WindowReturn {
  /** Simple return end/start − 1 over the window. */
  readonly change: number
  readonly apr: number
  readonly aprAfterFees: number
  readonly days: number
  readonly startDate: string
}

/**
 * Return over the `days` ending at the last close (null: since the first close); null without a
 * close exactly that old or with a non-positive start price.
 */
export const windowReturn = (closes: ReadonlyArray<DailyClose>, days: number | null, fees: FeeSchedule): WindowReturn | null => {
  const last = closes[closes.length - 1]
  if (last === undefined) return null
  const lastDay = dayNumber(last.date)
  const start = days === null ? closes[0] : closes.find((close) => dayNumber(close.date) === lastDay - days)
  if (start === undefined || start.sharePrice <= 0n) return null
  const span = lastDay - dayNumber(start.date)
  if (span <= 0) return null
  const change = ratio(last.sharePrice, start.sharePrice) - 1
  const apr = change * (365 / span)
  return { change, apr, aprAfterFees: aprAfterFees(apr, fees), days: span, startDate: start.date }
}

const windowApy = (closes: ReadonlyArray<DailyClose>, days: number | null, fees: FeeSchedule) => {
  const window = windowReturn(closes, days, fees)
  return window === null
    ? { gross: null, afterFees: null }
    : { gross: aprToApy(window.apr), afterFees: aprToApy(window.aprAfterFees) }
}

export const maxDrawdown = (closes: ReadonlyArray<DailyClose>): number | null => {
  if (closes.length < 2) return null
  let peak = closes[0]!.sharePrice
  let worst = 0
  for (const close of closes) {
    if (close.sharePrice > peak) peak = close.sharePrice
    else if (peak > 0n) worst = Math.max(worst, 1 - ratio(close.sharePrice, peak))
  }
  return worst
}

export const sharpe30d = (closes: ReadonlyArray<DailyClose>): number | null => {
  const recent = closes.slice(-31)
  const returns: Array<number> = []
  for (let i = 1; i < recent.length; i++) {
    const previous = recent[i - 1]!
    const current = recent[i]!
    if (dayNumber(current.date) - dayNumber(previous.date) !== 1 || previous.sharePrice <= 0n) return null
    returns.push(ratio(current.sharePrice, previous.sharePrice) - 1)
  }
  if (returns.length < 30) return null
  const mean = returns.reduce((sum, value) => sum + value, 0) / returns.length
  const variance = returns.reduce((sum, value) => sum + (value - mean) ** 2, 0) / (returns.length - 1)
  return variance === 0 ? null : (mean / Math.sqrt(variance)) * Math.sqrt(365)
}

/** `closes`: one per consecutive completed day, oldest first (days before the first price left out). */
export const yieldMetrics = (closes: ReadonlyArray<DailyClose>, fees: FeeSchedule): YieldMetrics => {
  const week = windowApy(closes, 7, fees)
  const month = windowApy(closes, 30, fees)
  const inception = windowApy(closes, null, fees)
  return {
    apy7d: week.gross,
    apy7dAfterFees: week.afterFees,
    apy30d: month.gross,
    apy30dAfterFees: month.afterFees,
    apyInception: inception.gross,
    apyInceptionAfterFees: inception.afterFees,
    maxDrawdown: maxDrawdown(closes),
    sharpeRatio30d: sharpe30d(closes)
  }
}
