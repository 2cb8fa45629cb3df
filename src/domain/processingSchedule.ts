import type { RedemptionSchedule } from "../ntbundle/math.ts"

export type ProcessFrequency = "30min" | "hourly" | "daily"

const FREQUENCIES: ReadonlyMap<bigint, ProcessFrequency> = new Map([[1_800n, "30min"], [3_600n, "hourly"], [86_400n, "daily"]])

/**
 * The vault's processing cadence where the program holds one: the redemption schedule's cycle
 * (next unlock − current unlock). Null without a schedule (cutoff 0), or for a cycle that is none of
 * the three the wire names: the keeper's deposit cadence is not on chain.
 */
export const processFrequency = (schedule: RedemptionSchedule): ProcessFrequency | null =>
  schedule.withdrawalRedemptionRequestCutoffTs === 0n
    ? null
    : FREQUENCIES.get(schedule.withdrawalRedemptionUnlockNextCycleTs - schedule.withdrawalRedemptionUnlockCurrentCycleTs) ?? null
