import { describe, expect, it } from "vitest"
import { depositRequest, withdrawalRequest, withdrawalRequestLogged } from "../../src/domain/pendingRequests.ts"
import { processFrequency } from "../../src/domain/processingSchedule.ts"
import { blankBundleTempData, blankUserBundleAccount } from "../../src/ntbundle/blankAccounts.ts"
import type { Address } from "@solana/kit"

const OWNER = "7vfCXTUXx5WJV5JADk17DUJ4ksgau7utNKj4b963voxs" as Address
const NOW = 1_800_000_000
const requestEvent = (name: string, data: Record<string, string>, slot = 100) => ({ name, slot, blockTime: NOW, data })

describe("processFrequency: the redemption schedule's cycle", () => {
  const schedule = (cutoff: bigint, current: bigint, next: bigint) => ({
    withdrawalRedemptionRequestCutoffTs: cutoff,
    withdrawalRedemptionUnlockCurrentCycleTs: current,
    withdrawalRedemptionUnlockNextCycleTs: next
  })
  it("names the three cadences the wire knows, null otherwise or without a schedule", () => {
    expect(processFrequency(schedule(100n, 1_000n, 1_000n + 86_400n))).toBe("daily")
    expect(processFrequency(schedule(100n, 1_000n, 4_600n))).toBe("hourly")
    expect(processFrequency(schedule(100n, 1_000n, 2_800n))).toBe("30min")
    expect(processFrequency(schedule(100n, 1_000n, 1_000n + 7n * 86_400n))).toBeNull()
    expect(processFrequency(schedule(0n, 1_000n, 1_000n + 86_400n))).toBeNull()
  })
})

describe("pending deposit stages", () => {
  const account = blankUserBundleAccount(OWNER, { pendingDeposit: 995n, lastDepositTimestamp: BigInt(NOW - 50) })
  const request = requestEvent("DepositRequested", { grossAmount: "1000", feeAmount: "5", netAmount: "995", timestamp: String(NOW - 50) })

  it("netted only when the cycle was netted after the last request", () => {
    const temp = (isNettingDone: boolean, lastNettingTimestamp: bigint) => ({ ...blankBundleTempData(), isNettingDone, lastNettingTimestamp })
    expect(depositRequest(account, temp(true, BigInt(NOW - 10)), [request], NOW)?.stage).toBe("netted")
    expect(depositRequest(account, temp(true, BigInt(NOW - 60)), [request], NOW)?.stage).toBe("requested")
    expect(depositRequest(account, temp(false, BigInt(NOW - 10)), [request], NOW)?.stage).toBe("requested")
  })

  it("gross and fee only when the logged requests add up to the chain's pending amount", () => {
    expect(depositRequest(account, null, [request], NOW)?.amounts).toEqual({ gross: 1000n, fee: 5n, net: 995n })
    const partial = blankUserBundleAccount(OWNER, { pendingDeposit: 1_990n, lastDepositTimestamp: BigInt(NOW - 5) })
    // A top-up the log does not hold (backfill): the chain's net, the account's last request time.
    expect(depositRequest(partial, null, [request], NOW)).toMatchObject({ amounts: { net: 1_990n }, requestedAt: NOW - 50 })
    expect(depositRequest(partial, null, [], NOW)).toMatchObject({ amounts: { net: 1_990n }, requestedAt: NOW - 5 })
  })

  it("a settled deposit is listed for a day of chain time, then dropped", () => {
    const settledAccount = blankUserBundleAccount(OWNER, { lastDepositTimestamp: BigInt(NOW - 50) })
    const allocated = requestEvent("Allocated", { netAmount: "995", userSharesBefore: "0", userSharesAfter: "990", timestamp: String(NOW - 20) })
    expect(depositRequest(settledAccount, null, [allocated, request], NOW)).toEqual({
      stage: "processed", requestedAt: NOW - 50, settledAt: NOW - 20, cooldownEnd: null, etaProcessAt: null,
      amounts: { gross: 1000n, fee: 5n, net: 995n, shares: 990n }
    })
    // One slot: the log cannot tell the order of its transactions (it sorts them by signature), and
    // with nothing pending on chain the request listed after its settlement was settled by it.
    expect(depositRequest(settledAccount, null, [request, allocated], NOW)?.amounts).toEqual({ gross: 1000n, fee: 5n, net: 995n, shares: 990n })
    // A request of a later slot with nothing pending is not the settlement's.
    const later = requestEvent("DepositRequested", { grossAmount: "1000", feeAmount: "5", netAmount: "995", timestamp: String(NOW - 10) }, 101)
    expect(depositRequest(settledAccount, null, [later, allocated], NOW)?.amounts).toEqual({ net: 995n, shares: 990n })
    expect(depositRequest(settledAccount, null, [allocated, request], NOW + 86_400)).toBeNull()
    expect(depositRequest(settledAccount, null, [], NOW)).toBeNull()
  })
})

describe("pending withdrawal", () => {
  const vault = { curve: { tMin: 100n, tMax: 100n, curve: 1 }, totalShares: 10_000n }
  const account = blankUserBundleAccount(OWNER, { pendingShares: 500n, estimatedPendingWithdrawalValue: 510n, withdrawalAvailableTimestamp: BigInt(NOW + 40) })
  it("requestedAt from the request event, else estimated from the cooldown; flags a missing event", () => {
    const event = requestEvent("WithdrawalRequested", { amount: "500", timestamp: String(NOW - 60) })
    expect(withdrawalRequest(account, vault, [event], NOW)).toMatchObject({ stage: "requested", requestedAt: NOW - 60, etaProcessAt: NOW + 40 })
    expect(withdrawalRequest(account, vault, [], NOW)).toMatchObject({ requestedAt: NOW + 40 - 100 })
    expect(withdrawalRequestLogged(account, [event])).toBe(true)
    expect(withdrawalRequestLogged(account, [])).toBe(false)
  })
})
