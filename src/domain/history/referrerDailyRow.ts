/**
 * One UTC day of a builder (referrer) in one vault, closed from the program's events. Share counts
 * are in the vault's share units; values follow from `closingSharePrice` (asset minor units per
 * 10^decimals shares, facts §6).
 */
export interface ReferrerDailyRow {
  /** `YYYY-MM-DD`, UTC. */
  readonly date: string
  readonly referrer: string
  readonly vault: string
  /** Management- and performance-fee shares accrued to the builder that day (`ReferralFeesAccrued`). */
  readonly mfeeShares: bigint
  readonly pfeeShares: bigint
  /** The vault's closing share price that day (carried forward; null before its first price). */
  readonly closingSharePrice: bigint | null
  /** Shares held by the bound cohort at the day's close (each user's last known shares). */
  readonly cohortShares: bigint
  /** Referred deposits allocated (`Allocated.net_amount`) and withdrawals paid (`Redeemed.gross_amount`) that day. */
  readonly flowsIn: bigint
  readonly flowsOut: bigint
  /** Users bound to the builder in the vault at the close. */
  readonly attributedUsers: number
  /** The last `referred_net_deposits_after` up to the close (0 before the first one: counters start at zero). */
  readonly referredNetDeposits: bigint
  /** Bit set of `LegacyFlag`. */
  readonly legacyFlags: number
  /** Provisional rows only: the chain time (unix seconds) the row covers up to; null on a completed day. */
  readonly partialThrough: number | null
}

/** A vault's day as the rollup closes it (the `DailyRow` fields with the vault). */
export interface VaultDailyRecord {
  readonly vault: string
  readonly date: string
  readonly closingSharePrice: bigint | null
  readonly closingTotalShares: bigint | null
  readonly depositsRequested: bigint
  readonly depositFees: bigint
  readonly withdrawalsPaid: bigint
  readonly withdrawalFees: bigint
  readonly feesCharged: bigint
  readonly events: number
}

/** All rows of one UTC day. */
export interface DayRows {
  readonly date: string
  readonly vaults: ReadonlyArray<VaultDailyRecord>
  readonly referrers: ReadonlyArray<ReferrerDailyRow>
}
