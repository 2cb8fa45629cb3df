import type { Address } from "@solana/kit"
import type { Bundle, BundleTempData, OracleData, ReferralTier, ReferrerAccount, UserBundleAccount } from "./accounts.ts"

// Accounts as the program creates them: every counter zero, every optional key the all-zero key.
// The sandbox's program model starts from these, and tests override the fields they care about.

export const ZERO_ADDRESS = "11111111111111111111111111111111" as Address

const zeroBytes = (length: number) => new Uint8Array(length)

export const blankReferralTier = (): ReferralTier => ({ threshold: 0n, pfeeBps: 0, mfeeBps: 0 })

export const blankBundle = (fields: Partial<Bundle> = {}): Bundle => ({
  name: zeroBytes(32),
  manager: ZERO_ADDRESS,
  keeper: ZERO_ADDRESS,
  treasuryAccount: ZERO_ADDRESS,
  allocatedReceivers: [],
  bundleUnderlyingBalance: 0n,
  maxDepositAmount: 0n,
  withdrawalDelay: 0n,
  performanceFee: 0,
  managementFeeBps: 0,
  depositFee: 0,
  withdrawalFee: 0,
  managerPfeeShares: 0n,
  currentAllocationBps: 0,
  oracleBuffer: 0n,
  totalShares: 0n,
  assetPrecision: 1_000_000n,
  assetAddress: ZERO_ADDRESS,
  assetDecimals: 6,
  withdrawalTMin: 0n,
  withdrawalTMax: 0n,
  withdrawalCurve: 1,
  permissionned: false,
  managerMfeeShares: 0n,
  minDepositAmount: 0n,
  oracleUpdateTimeLimit: 0n,
  oracleMaxAge: 0n,
  withdrawalRedemptionRequestCutoffTs: 0n,
  withdrawalRedemptionUnlockCurrentCycleTs: 0n,
  withdrawalRedemptionUnlockNextCycleTs: 0n,
  referrerEnabled: false,
  referrerMinDepositAmount: 0n,
  referralTiers: Array.from({ length: 5 }, blankReferralTier),
  tierCount: 0,
  padding: zeroBytes(117),
  ...fields
})

export const blankUserBundleAccount = (owner: Address, fields: Partial<UserBundleAccount> = {}): UserBundleAccount => ({
  owner,
  lastDepositTimestamp: 0n,
  shares: 0n,
  pendingDeposit: 0n,
  pendingShares: 0n,
  estimatedPendingWithdrawalValue: 0n,
  withdrawalAvailableTimestamp: 0n,
  lastWithdrawalProcessTimestamp: 0n,
  lastHighWaterMark: 0n,
  hwmPerShare: 0n,
  lastManagementFeeTimestamp: 0n,
  netDeposits: 0n,
  totalFeeCharged: 0n,
  customDepositFeeBps: 0,
  customWithdrawalFeeBps: 0,
  customPerformanceFeeBps: 0,
  customManagementFeeBps: 0,
  feeOverrideFlags: 0,
  customWithdrawalDelay: 0n,
  customWithdrawalTMin: 0n,
  customWithdrawalTMax: 0n,
  customWithdrawalCurve: 0,
  withdrawalTimingOverrideFlags: 0,
  switchActive: false,
  switchTargetBundle: ZERO_ADDRESS,
  switchCreatedAt: 0n,
  referrer: ZERO_ADDRESS,
  padding: zeroBytes(145),
  ...fields
})

export const blankReferrerAccount = (
  bundle: Address,
  referrer: Address,
  fields: Partial<ReferrerAccount> = {}
): ReferrerAccount => ({
  bundle,
  referrer,
  accruedPfeeShares: 0n,
  accruedMfeeShares: 0n,
  active: true,
  bump: 0,
  customPfeeBps: 0,
  customMfeeBps: 0,
  rateOverrideFlags: 0,
  pendingWithdrawShares: 0n,
  estimatedPendingWithdrawalValue: 0n,
  withdrawalAvailableTimestamp: 0n,
  lastWithdrawalProcessTimestamp: 0n,
  referredNetDeposits: 0n,
  padding: zeroBytes(48),
  ...fields
})

export const blankOracleData = (fields: Partial<OracleData> = {}): OracleData => ({
  averageExternalEquity: 0n,
  lastUpdateTime: 0n,
  padding: zeroBytes(64),
  ...fields
})

export const blankBundleTempData = (fields: Partial<BundleTempData> = {}): BundleTempData => ({
  cumulativePendingDeposits: 0n,
  pendingDepositsCounter: 0n,
  pendingWithdrawalsCounter: 0n,
  pendingLockedWithdrawalsCounter: 0n,
  lastTotalSharesMinted: 0n,
  lastNettingTimestamp: 0n,
  isNettingDone: false,
  distributionBaseAmount: 0n,
  isDistributionStarted: false,
  pausedDepositsWithdrawals: false,
  leftToDistribute: 0n,
  allocatedShares: 0n,
  padding: zeroBytes(168),
  ...fields
})
