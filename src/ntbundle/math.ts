// Vault arithmetic as the program and the official SDK do it: bigint throughout, floor division
// unless stated (deposit fees round up). Inputs are structural, so decoded accounts fit directly.

export const BPS_DENOMINATOR = 10_000n
export const SECONDS_IN_YEAR = 31_536_000n
export const MAX_DEPOSIT_FEE_BPS = 5_000
export const MAX_REFERRAL_TIERS = 5

const ceilDiv = (numerator: bigint, denominator: bigint): bigint => (numerator + denominator - 1n) / denominator
const max = (a: bigint, b: bigint): bigint => (a > b ? a : b)
const min = (a: bigint, b: bigint): bigint => (a < b ? a : b)

// ---------------------------------------------------------------------------------------------
// Equity, share price, conversions

/** What pricing needs from a vault: its two equity components and its share supply. */
export interface VaultValuationInput {
  readonly bundle: {
    readonly bundleUnderlyingBalance: bigint
    readonly totalShares: bigint
    readonly assetPrecision: bigint
  }
  readonly oracle: { readonly averageExternalEquity: bigint }
}

export interface VaultValuation {
  readonly totalEquity: bigint
  readonly totalShares: bigint
  readonly assetPrecision: bigint
}

/** Total equity = assets on the vault's own token account + equity deployed elsewhere (oracle). */
export const totalEquity = (input: VaultValuationInput): bigint =>
  input.bundle.bundleUnderlyingBalance + input.oracle.averageExternalEquity

export const vaultValuation = (input: VaultValuationInput): VaultValuation => ({
  totalEquity: totalEquity(input),
  totalShares: input.bundle.totalShares,
  assetPrecision: input.bundle.assetPrecision
})

/** Raw share price: asset minor units per `assetPrecision` share units; 1.0 when no shares exist. */
export const sharePrice = (valuation: VaultValuation): bigint =>
  valuation.totalShares === 0n
    ? valuation.assetPrecision
    : (valuation.totalEquity * valuation.assetPrecision) / valuation.totalShares

/** Asset value of a share count; 0 for an empty vault (the program would error instead). */
export const assetsFromShares = (valuation: VaultValuation, shares: bigint): bigint =>
  valuation.totalShares === 0n ? 0n : (shares * valuation.totalEquity) / valuation.totalShares

/**
 * Shares to request for withdrawing `amount` raw asset units (the SDK's `computeWithdrawalShares`):
 * everything when the amount covers the position, otherwise floor(amount × supply / equity) capped at
 * the position. 0 means nothing can be withdrawn.
 */
export const computeWithdrawalShares = (valuation: VaultValuation, userShares: bigint, amount: bigint): bigint => {
  if (valuation.totalShares === 0n || userShares === 0n) return 0n
  const userValue = (userShares * valuation.totalEquity) / valuation.totalShares
  if (amount >= userValue) return userShares
  if (valuation.totalEquity === 0n) return 0n
  return min(userShares, (amount * valuation.totalShares) / valuation.totalEquity)
}

/**
 * Estimated shares minted for a net deposit at the current price (inferred: the program mints at
 * netting time, so this is a preview estimate only).
 */
export const estimateSharesForNetDeposit = (valuation: VaultValuation, netAmount: bigint): bigint =>
  valuation.totalShares === 0n || valuation.totalEquity === 0n
    ? netAmount
    : (netAmount * valuation.totalShares) / valuation.totalEquity

// ---------------------------------------------------------------------------------------------
// Deposit fee

export interface DepositFeeSplit {
  readonly feeAmount: bigint
  readonly netAmount: bigint
}

/** Deposit fee rounds up: fee = ceil(gross × bps / 10000), net = gross − fee. */
export const depositFee = (grossAmount: bigint, depositFeeBps: number): DepositFeeSplit => {
  const feeAmount = ceilDiv(grossAmount * BigInt(depositFeeBps), BPS_DENOMINATOR)
  return { feeAmount, netAmount: grossAmount - feeAmount }
}

/**
 * Smallest gross amount whose net (after the rounded-up fee) is at least `netAmount`:
 * ceil(net × 10000 / (10000 − bps)). Null when the fee would take everything (bps ≥ 10000), which
 * the program forbids (max 5000) but a corrupt account could still claim.
 */
export const grossForNet = (netAmount: bigint, depositFeeBps: number): bigint | null => {
  const keptBps = BPS_DENOMINATOR - BigInt(depositFeeBps)
  if (keptBps <= 0n) return null
  return ceilDiv(netAmount * BPS_DENOMINATOR, keptBps)
}

// ---------------------------------------------------------------------------------------------
// Withdrawal cooldown and availability

export interface CooldownCurve {
  /** Seconds for a vanishingly small withdrawal. */
  readonly tMin: bigint
  /** Seconds for withdrawing the whole supply (and for any withdrawal from an empty vault). */
  readonly tMax: bigint
  /** Exponent of the share ratio (f32 on chain). */
  readonly curve: number
}

export const bundleCooldownCurve = (bundle: {
  readonly withdrawalTMin: bigint
  readonly withdrawalTMax: bigint
  readonly withdrawalCurve: number
}): CooldownCurve => ({ tMin: bundle.withdrawalTMin, tMax: bundle.withdrawalTMax, curve: bundle.withdrawalCurve })

/**
 * The program's `calculate_withdrawal_cooldown_time`, in f64 like the program:
 * ceil(tMin + (tMax − tMin) × (shares / totalShares)^curve). Bigger withdrawals wait longer.
 */
export const cooldownSeconds = (curve: CooldownCurve, shares: bigint, totalShares: bigint): bigint => {
  if (totalShares === 0n) return curve.tMax
  const ratio = Number(shares) / Number(totalShares)
  const seconds = Number(curve.tMin) + Number(curve.tMax - curve.tMin) * Math.pow(ratio, curve.curve)
  // An f32 read from an account can be NaN or make the power infinite; assume the longest wait.
  return Number.isFinite(seconds) ? BigInt(Math.ceil(seconds)) : curve.tMax
}

export interface RedemptionSchedule {
  /** 0 = no schedule: funds are available when the cooldown ends. */
  readonly withdrawalRedemptionRequestCutoffTs: bigint
  readonly withdrawalRedemptionUnlockCurrentCycleTs: bigint
  readonly withdrawalRedemptionUnlockNextCycleTs: bigint
}

/**
 * When a withdrawal requested at `now` becomes available: the cooldown end, but not before the
 * unlock of the redemption cycle the request falls in (requests up to the cutoff join the current
 * cycle, later ones the next).
 */
export const withdrawalAvailableAt = (now: bigint, cooldown: bigint, schedule: RedemptionSchedule): bigint => {
  const cooldownEnd = now + cooldown
  if (schedule.withdrawalRedemptionRequestCutoffTs === 0n) return cooldownEnd
  const unlock =
    now <= schedule.withdrawalRedemptionRequestCutoffTs
      ? schedule.withdrawalRedemptionUnlockCurrentCycleTs
      : schedule.withdrawalRedemptionUnlockNextCycleTs
  return max(cooldownEnd, unlock)
}

// ---------------------------------------------------------------------------------------------
// Fees: effective rates and pending-fee estimates

export const FEE_OVERRIDE_DEPOSIT = 1
export const FEE_OVERRIDE_WITHDRAWAL = 2
export const FEE_OVERRIDE_PERFORMANCE = 4
export const FEE_OVERRIDE_MANAGEMENT = 8

export interface BundleFeeSchedule {
  readonly depositFee: number
  readonly withdrawalFee: number
  readonly performanceFee: number
  readonly managementFeeBps: number
}

export interface UserFeeOverrides {
  readonly customDepositFeeBps: number
  readonly customWithdrawalFeeBps: number
  readonly customPerformanceFeeBps: number
  readonly customManagementFeeBps: number
  readonly feeOverrideFlags: number
}

export interface EffectiveFees {
  readonly depositFeeBps: number
  readonly withdrawalFeeBps: number
  readonly performanceFeeBps: number
  readonly managementFeeBps: number
}

// Top level, not a closure per call: the loader names every function it makes (a property write each).
const pickRate = (flags: number, bit: number, custom: number | undefined, vaultRate: number): number =>
  (flags & bit) !== 0 && custom !== undefined ? custom : vaultRate

/** A set override bit replaces the vault's rate with the user's custom rate, even when that is 0. */
export const resolveEffectiveFees = (bundle: BundleFeeSchedule, user: UserFeeOverrides | null): EffectiveFees => {
  const flags = user?.feeOverrideFlags ?? 0
  return {
    depositFeeBps: pickRate(flags, FEE_OVERRIDE_DEPOSIT, user?.customDepositFeeBps, bundle.depositFee),
    withdrawalFeeBps: pickRate(flags, FEE_OVERRIDE_WITHDRAWAL, user?.customWithdrawalFeeBps, bundle.withdrawalFee),
    performanceFeeBps: pickRate(flags, FEE_OVERRIDE_PERFORMANCE, user?.customPerformanceFeeBps, bundle.performanceFee),
    managementFeeBps: pickRate(flags, FEE_OVERRIDE_MANAGEMENT, user?.customManagementFeeBps, bundle.managementFeeBps)
  }
}

export interface FeeAccrualPosition {
  readonly shares: bigint
  /** 0 = unset: the current price counts as the high-water mark. */
  readonly hwmPerShare: bigint
  /** 0 = no management fee accrues yet. */
  readonly lastManagementFeeTimestamp: bigint
}

export interface PendingFees {
  readonly managementFeeShares: bigint
  readonly performanceFeeShares: bigint
  readonly totalFeeShares: bigint
  readonly feeValueRaw: bigint
  readonly sharePrice: bigint
}

/**
 * Fees the keeper would charge the position at `now` (apply_fees_to_user): management fee pro rata
 * to elapsed time, then performance fee on the gain above the high-water mark; management first and
 * capped at the position, performance capped at what remains.
 */
export const estimatePendingFees = (
  valuation: VaultValuation,
  position: FeeAccrualPosition,
  fees: Pick<EffectiveFees, "managementFeeBps" | "performanceFeeBps">,
  now: bigint
): PendingFees => {
  const price = sharePrice(valuation)
  const shares = position.shares

  let managementFeeShares = 0n
  if (position.lastManagementFeeTimestamp !== 0n) {
    const elapsed = max(0n, now - position.lastManagementFeeTimestamp)
    managementFeeShares = min(
      shares,
      (shares * elapsed * BigInt(fees.managementFeeBps)) / (SECONDS_IN_YEAR * BPS_DENOMINATOR)
    )
  }

  let performanceFeeShares = 0n
  const highWaterMark = position.hwmPerShare === 0n ? price : position.hwmPerShare
  if (price > highWaterMark) {
    const uncapped = ((price - highWaterMark) * shares * BigInt(fees.performanceFeeBps)) / (price * BPS_DENOMINATOR)
    performanceFeeShares = min(uncapped, shares - managementFeeShares)
  }

  const totalFeeShares = managementFeeShares + performanceFeeShares
  return {
    managementFeeShares,
    performanceFeeShares,
    totalFeeShares,
    feeValueRaw: valuation.assetPrecision === 0n ? 0n : (totalFeeShares * price) / valuation.assetPrecision,
    sharePrice: price
  }
}

// ---------------------------------------------------------------------------------------------
// Referral tiers and rates

export const REFERRAL_OVERRIDE_PFEE = 1
export const REFERRAL_OVERRIDE_MFEE = 2

export interface ReferralTierLike {
  readonly threshold: bigint
  readonly pfeeBps: number
  readonly mfeeBps: number
}

export interface ReferralTierSchedule {
  readonly referralTiers: ReadonlyArray<ReferralTierLike>
  readonly tierCount: number
}

export interface ReferrerRateState {
  readonly referredNetDeposits: bigint
  readonly rateOverrideFlags: number
  readonly customPfeeBps: number
  readonly customMfeeBps: number
}

export interface ReferralRates {
  readonly referralPfeeBps: number
  readonly referralMfeeBps: number
  /** The tier the rates come from; null when below the first tier or fully overridden. */
  readonly referralTierIndex: number | null
}

const configuredTiers = (schedule: ReferralTierSchedule): ReadonlyArray<ReferralTierLike> =>
  schedule.referralTiers.slice(0, Math.max(0, Math.min(schedule.tierCount, MAX_REFERRAL_TIERS)))

/** Index of the last tier reached walking up from tier 0 (lower bound inclusive); null below tier 0. */
const reachedTierIndex = (tiers: ReadonlyArray<ReferralTierLike>, referredNetDeposits: bigint): number | null => {
  let reached: number | null = null
  for (const [index, tier] of tiers.entries()) {
    if (referredNetDeposits < tier.threshold) break
    reached = index
  }
  return reached
}

/** Rates the vault's tier schedule gives for a referred-net-deposits counter. */
export const resolveTierRates = (schedule: ReferralTierSchedule, referredNetDeposits: bigint): ReferralRates => {
  const tiers = configuredTiers(schedule)
  const index = reachedTierIndex(tiers, referredNetDeposits)
  const tier = index === null ? undefined : tiers[index]
  return tier === undefined
    ? { referralPfeeBps: 0, referralMfeeBps: 0, referralTierIndex: null }
    : { referralPfeeBps: tier.pfeeBps, referralMfeeBps: tier.mfeeBps, referralTierIndex: index }
}

/**
 * A builder's effective referral rates: tier rates from its counter (0 when unregistered), with
 * per-builder overrides. Both bits set: custom rates, no tier. One bit: that component custom.
 */
export const resolveReferralRates = (
  schedule: ReferralTierSchedule,
  referrer: ReferrerRateState | null
): ReferralRates => {
  const fromTier = resolveTierRates(schedule, referrer?.referredNetDeposits ?? 0n)
  if (referrer === null) return fromTier
  const overridesPfee = (referrer.rateOverrideFlags & REFERRAL_OVERRIDE_PFEE) !== 0
  const overridesMfee = (referrer.rateOverrideFlags & REFERRAL_OVERRIDE_MFEE) !== 0
  if (overridesPfee && overridesMfee) {
    return { referralPfeeBps: referrer.customPfeeBps, referralMfeeBps: referrer.customMfeeBps, referralTierIndex: null }
  }
  return {
    referralPfeeBps: overridesPfee ? referrer.customPfeeBps : fromTier.referralPfeeBps,
    referralMfeeBps: overridesMfee ? referrer.customMfeeBps : fromTier.referralMfeeBps,
    referralTierIndex: fromTier.referralTierIndex
  }
}

export interface TierScheduleProgress {
  readonly referredNetDeposits: bigint
  readonly currentTierIndex: number | null
  readonly currentTier: ReferralTierLike | null
  readonly nextTierIndex: number | null
  readonly nextTier: ReferralTierLike | null
  /** Counter increase still needed to reach the next tier; 0 at the top. */
  readonly remainingNetDeposits: bigint
  /** Progress from the current tier's threshold (0 below tier 0) towards the next, in bps. */
  readonly progressBps: number
  readonly isHighestTier: boolean
}

/**
 * Where a counter stands on the tier ladder. With no tiers configured there is neither a current
 * nor a next tier: progress 0 and not the highest tier.
 */
export const tierScheduleProgress = (
  schedule: ReferralTierSchedule,
  referredNetDeposits: bigint
): TierScheduleProgress => {
  const tiers = configuredTiers(schedule)
  const currentTierIndex = reachedTierIndex(tiers, referredNetDeposits)
  const currentTier = currentTierIndex === null ? null : (tiers[currentTierIndex] ?? null)
  const nextTierIndex = currentTierIndex === null ? (tiers.length > 0 ? 0 : null) : currentTierIndex + 1
  const nextTier = nextTierIndex === null ? null : (tiers[nextTierIndex] ?? null)

  if (nextTier === null) {
    const isHighestTier = currentTier !== null
    return {
      referredNetDeposits,
      currentTierIndex,
      currentTier,
      nextTierIndex: null,
      nextTier: null,
      remainingNetDeposits: 0n,
      progressBps: isHighestTier ? 10_000 : 0,
      isHighestTier
    }
  }

  const currentThreshold = currentTier?.threshold ?? 0n
  const span = nextTier.threshold - currentThreshold
  const advanced = max(0n, min(referredNetDeposits - currentThreshold, span))
  return {
    referredNetDeposits,
    currentTierIndex,
    currentTier,
    nextTierIndex,
    nextTier,
    remainingNetDeposits: max(0n, nextTier.threshold - referredNetDeposits),
    progressBps: span > 0n ? Number((advanced * BPS_DENOMINATOR) / span) : 0,
    isHighestTier: false
  }
}
