/**
 * One completed UTC day of a vault, from the program's events (the event log). Closing values are
 * those of the day's last price-bearing event (`Allocated`, `Redeemed`, `ChargedFeesToUser`),
 * carried forward from an earlier day when the day had none (null before the first one).
 */
export interface DailyRow {
  /** `YYYY-MM-DD`, UTC. */
  readonly date: string
  readonly closingSharePrice: bigint | null
  /**
   * Shares outstanding at the day's close (carried forward): the last total an event reported
   * (`Allocated`, `Redeemed`, `OracleUpdated`, manager withdrawals), less builder claims settled and
   * dust burned since.
   */
  readonly closingTotalShares: bigint | null
  /** Gross amounts of the day's `DepositRequested` events. */
  readonly depositsRequested: bigint
  readonly depositFees: bigint
  /** Gross amounts of the day's `Redeemed` events (withdrawals paid out). */
  readonly withdrawalsPaid: bigint
  readonly withdrawalFees: bigint
  /** Value of the management and performance fees charged to users (`ChargedFeesToUser`). */
  readonly feesCharged: bigint
  readonly events: number
}

/** The rows' closing share prices, oldest first, from the first day that has one. */
export const dailyCloses = (rows: ReadonlyArray<DailyRow>): Array<{ readonly date: string; readonly sharePrice: bigint }> =>
  rows.flatMap((row) => (row.closingSharePrice === null ? [] : [{ date: row.date, sharePrice: row.closingSharePrice }]))
