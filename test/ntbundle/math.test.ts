import { describe, expect, it } from "@effect/vitest"
import { FastCheck } from "effect"
import { decodeBundle, decodeOracleData, decodeUserBundleAccount } from "../../src/ntbundle/accounts.ts"
import {
  assetsFromShares,
  computeWithdrawalShares,
  cooldownSeconds,
  depositFee,
  estimatePendingFees,
  grossForNet,
  resolveEffectiveFees,
  resolveReferralRates,
  resolveTierRates,
  sharePrice,
  tierScheduleProgress,
  totalEquity,
  vaultValuation,
  withdrawalAvailableAt,
  type ReferralTierSchedule,
  type VaultValuation
} from "../../src/ntbundle/math.ts"
import { golden, hexBytes, right } from "./golden.ts"

const bundle = right(decodeBundle(hexBytes(golden.accounts.Bundle.hex)))
const oracle = right(decodeOracleData(hexBytes(golden.accounts.OracleData.hex)))
const position = right(decodeUserBundleAccount(hexBytes(golden.accounts.UserBundleAccount.hex)))
const valuation = vaultValuation({ bundle, oracle })
const m = golden.math
const big = (text: string): bigint => BigInt(text)

const tierJson = (tier: { threshold: bigint; pfeeBps: number; mfeeBps: number } | null) =>
  tier === null ? null : { threshold: tier.threshold.toString(), pfeeBps: tier.pfeeBps, mfeeBps: tier.mfeeBps }

describe("golden math (official SDK results)", () => {
  it("total equity = vault balance + oracle external equity", () => {
    expect(totalEquity({ bundle, oracle })).toBe(big(m.totalEquity))
    expect(valuation.totalEquity).toBe(big(m.totalEquity))
  })

  it("share price", () => {
    expect(sharePrice(valuation)).toBe(big(m.sharePrice))
  })

  it("assets from shares", () => {
    expect(assetsFromShares(valuation, big(m.assetsFromShares.shares))).toBe(big(m.assetsFromShares.expected))
  })

  it("gross deposit for a net amount at 50 bps", () => {
    expect(grossForNet(big(m.grossForNet.net), m.grossForNet.depositFeeBps)).toBe(big(m.grossForNet.expected))
  })

  for (const c of m.cooldown) {
    it(`cooldown for 1% of supply, curve ${c.curve}`, () => {
      const curve = { tMin: big(c.tMin), tMax: big(c.tMax), curve: c.curve }
      expect(cooldownSeconds(curve, big(c.shares), big(c.totalShares))).toBe(big(c.expected))
    })
  }

  it("availability with a redemption schedule, before and after the cutoff", () => {
    const a = m.availability
    const schedule = {
      withdrawalRedemptionRequestCutoffTs: big(a.cutoffTs),
      withdrawalRedemptionUnlockCurrentCycleTs: big(a.unlockCurrentCycleTs),
      withdrawalRedemptionUnlockNextCycleTs: big(a.unlockNextCycleTs)
    }
    expect(withdrawalAvailableAt(big(a.beforeCutoff.now), big(a.cooldown), schedule)).toBe(big(a.beforeCutoff.expected))
    expect(withdrawalAvailableAt(big(a.afterCutoff.now), big(a.cooldown), schedule)).toBe(big(a.afterCutoff.expected))
  })

  for (const c of m.tierRates) {
    it(`referral rates: ${c.case}`, () => {
      const referrer = c.override === null ? null : { referredNetDeposits: big(c.referredNetDeposits), ...c.override }
      const rates =
        referrer === null ? resolveTierRates(bundle, big(c.referredNetDeposits)) : resolveReferralRates(bundle, referrer)
      expect(rates).toEqual(c.expected)
    })
  }

  it("tier schedule progress at 600k USDC", () => {
    const p = tierScheduleProgress(bundle, big(m.tierProgress.referredNetDeposits))
    expect({
      referredNetDeposits: p.referredNetDeposits.toString(),
      currentTierIndex: p.currentTierIndex,
      currentTier: tierJson(p.currentTier),
      nextTierIndex: p.nextTierIndex,
      nextTier: tierJson(p.nextTier),
      remainingNetDeposits: p.remainingNetDeposits.toString(),
      progressBps: p.progressBps,
      isHighestTier: p.isHighestTier
    }).toEqual(m.tierProgress)
  })

  it("pending fees after one year with an 80 bps management-fee override", () => {
    const fees = resolveEffectiveFees(bundle, position)
    expect(fees.managementFeeBps).toBe(80)
    const pending = estimatePendingFees(valuation, position, fees, big(m.pendingFees.now))
    expect({
      managementFeeShares: pending.managementFeeShares.toString(),
      performanceFeeShares: pending.performanceFeeShares.toString(),
      totalFeeShares: pending.totalFeeShares.toString(),
      feeValueRaw: pending.feeValueRaw.toString(),
      sharePrice: pending.sharePrice.toString()
    }).toEqual(m.pendingFees.expected)
  })

  it("withdrawal amount -> shares (the withdraw vector)", () => {
    const w = golden.builders.withdraw
    expect(computeWithdrawalShares(valuation, position.shares, big(w.amount))).toBe(big(w.sharesAmount))
  })
})

describe("math rules beyond the vectors", () => {
  const empty: VaultValuation = { totalEquity: 0n, totalShares: 0n, assetPrecision: 1_000_000n }

  it("an empty vault prices a share at 1.0 and values shares at 0", () => {
    expect(sharePrice(empty)).toBe(1_000_000n)
    expect(assetsFromShares(empty, 5n)).toBe(0n)
  })

  it("withdrawal shares: all when the amount covers the position, 0 without supply/position/equity", () => {
    expect(computeWithdrawalShares(valuation, position.shares, 10n ** 18n)).toBe(position.shares)
    expect(computeWithdrawalShares(empty, 10n, 10n)).toBe(0n)
    expect(computeWithdrawalShares(valuation, 0n, 10n)).toBe(0n)
    expect(computeWithdrawalShares({ ...valuation, totalEquity: 0n }, 10n, 1n)).toBe(10n)
    expect(computeWithdrawalShares(valuation, position.shares, 0n)).toBe(0n)
  })

  it("deposit fee rounds up", () => {
    expect(depositFee(1n, 1)).toEqual({ feeAmount: 1n, netAmount: 0n })
    expect(depositFee(100_000_000n, 50)).toEqual({ feeAmount: 500_000n, netAmount: 99_500_000n })
    expect(depositFee(100_000_001n, 50)).toEqual({ feeAmount: 500_001n, netAmount: 99_500_000n })
    expect(depositFee(123n, 0)).toEqual({ feeAmount: 0n, netAmount: 123n })
  })

  it("gross-for-net is the smallest gross whose net covers the target", () => {
    FastCheck.assert(
      FastCheck.property(FastCheck.bigInt({ min: 1n, max: 2n ** 64n - 1n }), FastCheck.integer({ min: 0, max: 5000 }), (net, bps) => {
        const gross = grossForNet(net, bps)!
        expect(depositFee(gross, bps).netAmount >= net).toBe(true)
        expect(depositFee(gross - 1n, bps).netAmount < net).toBe(true)
      }),
      { numRuns: 500 }
    )
    expect(grossForNet(1n, 10_000)).toBeNull()
  })

  it("cooldown: t_max for an empty vault; t_min for a tiny withdrawal; t_max for the whole supply", () => {
    const curve = { tMin: 3600n, tMax: 259_200n, curve: 1 }
    expect(cooldownSeconds(curve, 5n, 0n)).toBe(259_200n)
    expect(cooldownSeconds(curve, 0n, 98n)).toBe(3600n)
    expect(cooldownSeconds(curve, 98n, 98n)).toBe(259_200n)
    // a corrupt curve exponent falls back to the longest wait instead of throwing
    expect(cooldownSeconds({ ...curve, curve: Number.NaN }, 1n, 98n)).toBe(259_200n)
    expect(cooldownSeconds({ ...curve, curve: -1 }, 0n, 98n)).toBe(259_200n)
  })

  it("availability without a schedule is the cooldown end; a late unlock is never earlier than the cooldown", () => {
    const none = { withdrawalRedemptionRequestCutoffTs: 0n, withdrawalRedemptionUnlockCurrentCycleTs: 99n, withdrawalRedemptionUnlockNextCycleTs: 99n }
    expect(withdrawalAvailableAt(100n, 50n, none)).toBe(150n)
    const early = { withdrawalRedemptionRequestCutoffTs: 200n, withdrawalRedemptionUnlockCurrentCycleTs: 120n, withdrawalRedemptionUnlockNextCycleTs: 300n }
    expect(withdrawalAvailableAt(100n, 50n, early)).toBe(150n)
    expect(withdrawalAvailableAt(200n, 0n, early)).toBe(200n)
    expect(withdrawalAvailableAt(201n, 0n, early)).toBe(300n)
  })

  it("fee overrides apply per bit, even when the custom rate is 0", () => {
    const schedule = { depositFee: 10, withdrawalFee: 20, performanceFee: 30, managementFeeBps: 40 }
    const custom = { customDepositFeeBps: 0, customWithdrawalFeeBps: 2, customPerformanceFeeBps: 3, customManagementFeeBps: 4 }
    expect(resolveEffectiveFees(schedule, null)).toEqual({ depositFeeBps: 10, withdrawalFeeBps: 20, performanceFeeBps: 30, managementFeeBps: 40 })
    expect(resolveEffectiveFees(schedule, { ...custom, feeOverrideFlags: 0 })).toEqual({ depositFeeBps: 10, withdrawalFeeBps: 20, performanceFeeBps: 30, managementFeeBps: 40 })
    expect(resolveEffectiveFees(schedule, { ...custom, feeOverrideFlags: 1 | 4 })).toEqual({ depositFeeBps: 0, withdrawalFeeBps: 20, performanceFeeBps: 3, managementFeeBps: 40 })
    expect(resolveEffectiveFees(schedule, { ...custom, feeOverrideFlags: 15 })).toEqual({ depositFeeBps: 0, withdrawalFeeBps: 2, performanceFeeBps: 3, managementFeeBps: 4 })
  })

  it("performance fee on the gain above the high-water mark, capped after the management fee", () => {
    const v: VaultValuation = { totalEquity: 120n, totalShares: 100n, assetPrecision: 1_000_000n } // price 1.2
    const p = { shares: 1_000_000n, hwmPerShare: 1_000_000n, lastManagementFeeTimestamp: 0n }
    const fees = estimatePendingFees(v, p, { managementFeeBps: 0, performanceFeeBps: 2000 }, 0n)
    // (1.2 − 1.0) × 1e6 shares × 20% / 1.2 = 33_333 shares
    expect(fees.performanceFeeShares).toBe(33_333n)
    expect(fees.managementFeeShares).toBe(0n)
    expect(fees.feeValueRaw).toBe((33_333n * 1_200_000n) / 1_000_000n)
    // hwm 0 = the current price: no gain
    expect(estimatePendingFees(v, { ...p, hwmPerShare: 0n }, { managementFeeBps: 0, performanceFeeBps: 2000 }, 0n).performanceFeeShares).toBe(0n)
    // a 100% management fee over ten years takes every share; nothing is left for performance
    const capped = estimatePendingFees(v, { ...p, lastManagementFeeTimestamp: 1n }, { managementFeeBps: 10_000, performanceFeeBps: 2000 }, 1n + 10n * 31_536_000n)
    expect(capped.managementFeeShares).toBe(p.shares)
    expect(capped.performanceFeeShares).toBe(0n)
    // no management fee before the first timestamp or when time runs backwards
    expect(estimatePendingFees(v, { ...p, lastManagementFeeTimestamp: 100n }, { managementFeeBps: 100, performanceFeeBps: 0 }, 50n).managementFeeShares).toBe(0n)
  })

  const ladder: ReferralTierSchedule = {
    referralTiers: [
      { threshold: 100n, pfeeBps: 1, mfeeBps: 10 },
      { threshold: 200n, pfeeBps: 2, mfeeBps: 20 },
      { threshold: 400n, pfeeBps: 3, mfeeBps: 30 },
      { threshold: 0n, pfeeBps: 9, mfeeBps: 99 },
      { threshold: 0n, pfeeBps: 9, mfeeBps: 99 }
    ],
    tierCount: 3
  }

  it("tier rates: lower bound inclusive, negative counters below tier 0, tier_count limits the walk", () => {
    expect(resolveTierRates(ladder, 99n)).toEqual({ referralPfeeBps: 0, referralMfeeBps: 0, referralTierIndex: null })
    expect(resolveTierRates(ladder, 100n)).toEqual({ referralPfeeBps: 1, referralMfeeBps: 10, referralTierIndex: 0 })
    expect(resolveTierRates(ladder, 10n ** 12n)).toEqual({ referralPfeeBps: 3, referralMfeeBps: 30, referralTierIndex: 2 })
    expect(resolveTierRates(ladder, -5n).referralTierIndex).toBeNull()
    expect(resolveTierRates({ ...ladder, tierCount: 0 }, 10n ** 12n).referralTierIndex).toBeNull()
  })

  it("referral overrides: both bits drop the tier index; one bit replaces one component", () => {
    const referrer = { referredNetDeposits: 250n, rateOverrideFlags: 0, customPfeeBps: 7, customMfeeBps: 77 }
    expect(resolveReferralRates(ladder, referrer)).toEqual({ referralPfeeBps: 2, referralMfeeBps: 20, referralTierIndex: 1 })
    expect(resolveReferralRates(ladder, { ...referrer, rateOverrideFlags: 1 })).toEqual({ referralPfeeBps: 7, referralMfeeBps: 20, referralTierIndex: 1 })
    expect(resolveReferralRates(ladder, { ...referrer, rateOverrideFlags: 3 })).toEqual({ referralPfeeBps: 7, referralMfeeBps: 77, referralTierIndex: null })
    expect(resolveReferralRates(ladder, null)).toEqual({ referralPfeeBps: 0, referralMfeeBps: 0, referralTierIndex: null })
  })

  it("tier progress below tier 0, at the top, and with no tiers", () => {
    const below = tierScheduleProgress(ladder, 25n)
    expect([below.currentTierIndex, below.nextTierIndex, below.remainingNetDeposits, below.progressBps]).toEqual([null, 0, 75n, 2500])
    expect(tierScheduleProgress(ladder, -50n).progressBps).toBe(0)
    const top = tierScheduleProgress(ladder, 500n)
    expect([top.currentTierIndex, top.nextTier, top.remainingNetDeposits, top.progressBps, top.isHighestTier]).toEqual([2, null, 0n, 10_000, true])
    const none = tierScheduleProgress({ ...ladder, tierCount: 0 }, 500n)
    expect([none.currentTier, none.nextTier, none.progressBps, none.isHighestTier]).toEqual([null, null, 0, false])
  })
})
