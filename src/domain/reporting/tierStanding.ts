import type { ReferrerAccount } from "../../ntbundle/accounts.ts"
import { type ReferralTierSchedule, resolveReferralRates, tierScheduleProgress } from "../../ntbundle/math.ts"

export interface CurrentTier {
  readonly index: number
  readonly threshold: bigint
  /** Live rates: the tier's, or the builder's custom rate where its override flag is set. */
  readonly mfeeBps: number
  readonly pfeeBps: number
}

export interface NextTier {
  readonly index: number
  readonly threshold: bigint
  /** Referred net deposits still needed to reach it (exact, raw asset units). */
  readonly remaining: bigint
}

export interface TierStanding {
  readonly referredNetDeposits: bigint
  /** null below the first threshold (or with no tiers configured). */
  readonly current: CurrentTier | null
  /** null at the top tier (or with no tiers configured). */
  readonly next: NextTier | null
  /** The rates fee settlement uses now: override flags, else the tier schedule at the counter. */
  readonly effectiveMfeeBps: number
  readonly effectivePfeeBps: number
}

/**
 * Where a builder stands on a vault's tier ladder. An unregistered builder has no counter: it
 * stands at zero and earns what the program would give it (tier rates at 0, no overrides).
 */
export const tierStanding = (schedule: ReferralTierSchedule, referrer: ReferrerAccount | null): TierStanding => {
  const referredNetDeposits = referrer?.referredNetDeposits ?? 0n
  const progress = tierScheduleProgress(schedule, referredNetDeposits)
  const rates = resolveReferralRates(schedule, referrer)
  return {
    referredNetDeposits,
    current: progress.currentTierIndex === null || progress.currentTier === null ? null : {
      index: progress.currentTierIndex,
      threshold: progress.currentTier.threshold,
      mfeeBps: rates.referralMfeeBps,
      pfeeBps: rates.referralPfeeBps
    },
    next: progress.nextTierIndex === null || progress.nextTier === null ? null : {
      index: progress.nextTierIndex,
      threshold: progress.nextTier.threshold,
      remaining: progress.remainingNetDeposits
    },
    effectiveMfeeBps: rates.referralMfeeBps,
    effectivePfeeBps: rates.referralPfeeBps
  }
}
