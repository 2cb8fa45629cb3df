import type { Address } from "@solana/kit"
import fc from "fast-check"
import { describe, expect, it } from "vitest"
import { encodeBundle, encodeReferrerAccount, encodeUserBundleAccount, encodeBundleTempData, encodeOracleData } from "../../../src/ntbundle/accounts.ts"
import { blankBundle, blankBundleTempData, blankOracleData, blankReferrerAccount, blankUserBundleAccount } from "../../../src/ntbundle/blankAccounts.ts"
import { encodeBase58 } from "../../../src/ntbundle/base58.ts"
import { BUNDLE_FIELDS, bundleView, ORACLE_FIELDS, oracleView, readTiers, REFERRER_FIELDS, referrerView, TEMP_DATA_FIELDS, tempDataView, USER_BUNDLE_FIELDS, userBundleView } from "../../../src/sandbox/ntbundle/layout.ts"

// The model's in-place views must read exactly what the golden-tested codecs of src/ntbundle write.
const u64 = fc.bigInt({ min: 0n, max: 2n ** 64n - 1n })
const i64 = fc.bigInt({ min: -(2n ** 63n), max: 2n ** 63n - 1n })
const u128 = fc.bigInt({ min: 0n, max: 2n ** 128n - 1n })
const i128 = fc.bigInt({ min: -(2n ** 127n), max: 2n ** 127n - 1n })
const u32 = fc.integer({ min: 0, max: 2 ** 32 - 1 })
const address = fc.uint8Array({ minLength: 32, maxLength: 32 }).map((bytes) => encodeBase58(bytes) as Address)

const expectViewMatches = (view: Record<string, unknown>, decoded: Record<string, unknown>, fields: Record<string, unknown>) => {
  for (const name of Object.keys(fields)) {
    if (name === "receiverCount") continue
    expect([name, view[name]]).toEqual([name, decoded[name]])
  }
}

describe("layout views", () => {
  it("read UserBundleAccount fields as the codec writes them", () => {
    fc.assert(
      fc.property(address, address, u128, u64, u128, i128, i64, u32, (owner, referrer, shares, pending, pendingShares, netDeposits, timestamp, bps) => {
        const account = blankUserBundleAccount(owner, { referrer, shares, pendingDeposit: pending, pendingShares, netDeposits, lastManagementFeeTimestamp: timestamp, customManagementFeeBps: bps, hwmPerShare: shares, switchActive: true })
        expectViewMatches(userBundleView(encodeUserBundleAccount(account)) as never, account as never, USER_BUNDLE_FIELDS)
      })
    )
  })

  it("read and write ReferrerAccount, OracleData and BundleTempData fields", () => {
    fc.assert(
      fc.property(address, address, u128, i128, u64, i64, (bundle, referrer, shares, counter, amount, time) => {
        const account = blankReferrerAccount(bundle, referrer, { accruedMfeeShares: shares, accruedPfeeShares: shares / 3n, referredNetDeposits: counter, pendingWithdrawShares: shares / 2n, estimatedPendingWithdrawalValue: amount, withdrawalAvailableTimestamp: time, rateOverrideFlags: 3, customMfeeBps: 77, bump: 254 })
        const data = encodeReferrerAccount(account)
        expectViewMatches(referrerView(data) as never, account as never, REFERRER_FIELDS)
        const view = referrerView(data)
        view.referredNetDeposits = -counter / 2n
        expect(view.referredNetDeposits).toBe(-counter / 2n)
        const oracle = blankOracleData({ averageExternalEquity: amount, lastUpdateTime: time })
        expectViewMatches(oracleView(encodeOracleData(oracle)) as never, oracle as never, ORACLE_FIELDS)
        const temp = blankBundleTempData({ cumulativePendingDeposits: amount, lastTotalSharesMinted: shares, allocatedShares: shares / 5n, isNettingDone: true, pausedDepositsWithdrawals: true, lastNettingTimestamp: time })
        expectViewMatches(tempDataView(encodeBundleTempData(temp)) as never, temp as never, TEMP_DATA_FIELDS)
      })
    )
  })

  it("read Bundle fields after any number of receivers, tiers included", () => {
    fc.assert(
      fc.property(fc.array(address, { maxLength: 4 }), address, u128, u64, i64, u32, (receivers, manager, shares, amount, time, bps) => {
        const tiers = [0, 1, 2, 3, 4].map((index) => ({ threshold: amount / BigInt(index + 1), pfeeBps: index, mfeeBps: bps }))
        const bundle = blankBundle({ allocatedReceivers: receivers, manager, keeper: manager, totalShares: shares, bundleUnderlyingBalance: amount, managerMfeeShares: shares / 7n, withdrawalTMin: time, managementFeeBps: bps, withdrawalCurve: 1.5, referrerEnabled: true, referralTiers: tiers, tierCount: 4, oracleMaxAge: time, referrerMinDepositAmount: amount })
        const view = bundleView(encodeBundle(bundle))
        expectViewMatches(view as never, bundle as never, BUNDLE_FIELDS)
        expect(view.receiverCount).toBe(receivers.length)
        expect(readTiers(view)).toEqual(tiers)
      })
    )
  })
})
