import type { Address } from "@solana/kit"
import { AccountRole } from "@solana/kit"
import { describe, expect, it } from "vitest"
import { findReferrerPda } from "../../../src/ntbundle/pdas.ts"
import { checkInvariants } from "../../../src/sandbox/ntbundle/invariants.ts"
import { customErrorOf, expectLanded, makeHarness, USDC, type Harness } from "./harness.ts"
import { flows, managerIx } from "./flows.ts"

const DAY = 86_400
const YEAR = 31_536_000n

const setup = (configure?: Parameters<typeof makeHarness>[0]) => {
  const h = makeHarness(configure)
  const f = flows(h)
  const builder = h.wallet("builder")
  f.onboardBuilder(builder, 100n * USDC)
  return { h, f, builder, alice: h.wallet("alice"), bob: h.wallet("bob") }
}

const accruedEvent = (h: Harness, outcome: Parameters<Harness["events"]>[0]) => h.events(outcome).find((event) => event.name === "ReferralFeesAccrued")

describe("apply_fees_to_user", () => {
  it("charges the management fee pro rata to time, moving the shares to the manager", () => {
    const { h, f, alice } = setup()
    f.deposit(alice, 100_000n * USDC)
    const before = h.user(alice.address)!
    const managerBefore = h.bundle().managerMfeeShares
    h.advanceSeconds(30 * DAY)
    const out = expectLanded(f.applyFees(alice.address))
    const elapsed = h.user(alice.address)!.lastManagementFeeTimestamp - before.lastManagementFeeTimestamp
    const expected = (before.shares * elapsed * 100n) / (YEAR * 10_000n)
    expect(expected).toBeGreaterThan(0n)
    expect(h.user(alice.address)!.shares).toBe(before.shares - expected)
    expect(h.bundle().managerMfeeShares - managerBefore).toBe(expected)
    expect(h.events(out)).toHaveLength(1)
    expect(h.events(out)[0]).toMatchObject({ name: "ChargedFeesToUser", data: { managementFeeShares: expected, performanceFeeShares: 0n, referralMfeeBps: 0, referralTierIndex: null } })
    expect(checkInvariants(h.chain.ledger, h.programId)).toEqual([])
  })

  it("charges the performance fee above the high-water mark", () => {
    const { h, f, alice } = setup({ vault: (config) => ({ ...config, performanceFeeBps: 2000, managementFeeBps: 0 }) })
    f.deposit(alice, 100_000n * USDC)
    expectLanded(f.updateOracle(110_000n * USDC))
    const out = expectLanded(f.applyFees(alice.address))
    const charged = h.events(out)[0]!.data as { performanceFeeShares: bigint; sharePrice: bigint }
    expect(charged.performanceFeeShares).toBeGreaterThan(0n)
    expect(h.user(alice.address)!.hwmPerShare).toBe(charged.sharePrice)
    expect(h.bundle().managerPfeeShares).toBe(charged.performanceFeeShares)
    const again = expectLanded(f.applyFees(alice.address))
    expect((h.events(again)[0]!.data as { performanceFeeShares: bigint }).performanceFeeShares).toBe(0n)
  })

  it("accrues the builder's share at the live tier rate, which follows referred net deposits both ways", () => {
    const { h, f, builder, alice, bob } = setup()
    f.depositReferred(alice, 9_000n * USDC, builder.address)
    h.advanceSeconds(10 * DAY)
    const belowTier = expectLanded(f.applyFees(alice.address))
    expect(accruedEvent(h, belowTier)?.data).toMatchObject({ referralMfeeBps: 0, referralTierIndex: null, referrerMfeeShares: 0n })

    f.depositReferred(bob, 2_000n * USDC, builder.address)
    expect(h.referrer(builder.address)!.referredNetDeposits).toBeGreaterThanOrEqual(10_000n * USDC)
    h.advanceSeconds(10 * DAY)
    const inTier = expectLanded(f.applyFees(alice.address))
    const charged = h.events(inTier)[0]!.data as { managementFeeShares: bigint; referralMfeeBps: number }
    const accrued = accruedEvent(h, inTier)!.data as { referrerMfeeShares: bigint; accruedMfeeSharesAfter: bigint }
    expect(charged.referralMfeeBps).toBe(1000)
    expect(accrued).toMatchObject({ referrerMfeeShares: (charged.managementFeeShares * 1000n) / 10_000n, referralTierIndex: 0 })
    expect(h.referrer(builder.address)!.accruedMfeeShares).toBe(accrued.accruedMfeeSharesAfter)

    expectLanded(f.requestWithdrawal(bob, h.user(bob.address)!.shares))
    h.advanceSeconds(DAY)
    const redeemed = h.events(expectLanded(f.processWithdrawal(bob.address)))[0]!.data as { referredNetDepositsAfter: bigint }
    expect(redeemed.referredNetDepositsAfter).toBeLessThan(10_000n * USDC)
    h.advanceSeconds(10 * DAY)
    expect(accruedEvent(h, expectLanded(f.applyFees(alice.address)))?.data).toMatchObject({ referralMfeeBps: 0, referralTierIndex: null })
    expect(checkInvariants(h.chain.ledger, h.programId)).toEqual([])
  })

  it("uses the builder's rate override over the tier", () => {
    const { h, f, builder, alice } = setup()
    f.depositReferred(alice, 1_000n * USDC, builder.address)
    expectLanded(h.send(h.manager, [managerIx(h, "set_referrer_rate_override", { overrideMask: 2, customPfeeBps: 0, customMfeeBps: 4200 }, builder.address)]))
    h.advanceSeconds(30 * DAY)
    expect(accruedEvent(h, expectLanded(f.applyFees(alice.address)))?.data).toMatchObject({ referralMfeeBps: 4200, referralTierIndex: null })
  })

  it("needs the referred user's ReferrerAccount (Missing 6088, Mismatch 6089)", () => {
    const { h, f, builder, alice } = setup()
    const other = h.wallet("builder2")
    f.onboardBuilder(other, 100n * USDC)
    f.depositReferred(alice, 1_000n * USDC, builder.address)
    expect(customErrorOf(f.applyFees(alice.address, []))).toBe(6088)
    const wrong = [{ address: findReferrerPda(h.programId, h.vault, other.address as Address)[0], role: AccountRole.WRITABLE }]
    expect(customErrorOf(f.applyFees(alice.address, wrong))).toBe(6089)
  })

  it("lets referred net deposits go negative when a referred user withdraws more than was deposited", () => {
    const { h, f, builder, alice } = setup()
    f.depositReferred(alice, 100_000n * USDC, builder.address)
    expectLanded(f.updateOracle(200_000n * USDC))
    expectLanded(f.requestWithdrawal(alice, h.user(alice.address)!.shares))
    h.advanceSeconds(2 * DAY)
    const out = expectLanded(f.processWithdrawal(alice.address))
    const after = (h.events(out)[0]!.data as { referredNetDepositsAfter: bigint }).referredNetDepositsAfter
    expect(after).toBeLessThan(0n)
    expect(h.referrer(builder.address)!.referredNetDeposits).toBe(after)
    expect(h.user(alice.address)!.netDeposits).toBeLessThan(0n)
    expect(checkInvariants(h.chain.ledger, h.programId)).toEqual([])
  })
})

describe("builder claims", () => {
  it("claims every accrued share, then settles after the cooldown with ReferrerWithdrawalProcessed", () => {
    const { h, f, builder, alice } = setup({ vault: (config) => ({ ...config, referral: { minDepositAmount: 0n, tiers: [{ threshold: 0n, pfeeBps: 0, mfeeBps: 5000 }] } }) })
    expect(customErrorOf(f.claim(builder))).toBe(6090)
    f.depositReferred(alice, 1_000_000n * USDC, builder.address)
    h.advanceSeconds(90 * DAY)
    expectLanded(f.applyFees(alice.address))
    const accrued = h.referrer(builder.address)!.accruedMfeeShares
    expect(accrued).toBeGreaterThan(0n)
    const request = expectLanded(f.claim(builder))
    expect(h.events(request)[0]).toMatchObject({ name: "ReferrerWithdrawalRequested", data: { referrer: builder.address, shares: accrued } })
    expect(h.referrer(builder.address)).toMatchObject({ accruedMfeeShares: 0n, pendingWithdrawShares: accrued })
    expect(customErrorOf(f.claim(builder))).toBe(6028)
    expect(customErrorOf(f.settleClaim(builder.address))).toBe(6054)
    expect(checkInvariants(h.chain.ledger, h.programId)).toEqual([])

    h.advanceSeconds(DAY)
    const bundle = h.bundle()
    const value = (accrued * (bundle.bundleUnderlyingBalance + h.oracle().averageExternalEquity)) / bundle.totalShares
    const walletBefore = h.tokenBalance(h.ata(builder.address))
    const settled = expectLanded(f.settleClaim(builder.address))
    expect(h.events(settled)[0]).toMatchObject({ name: "ReferrerWithdrawalProcessed", data: { sharesRedeemed: accrued, redemptionAmount: value } })
    expect(h.tokenBalance(h.ata(builder.address)) - walletBefore).toBe(value)
    expect(h.bundle().totalShares).toBe(bundle.totalShares - accrued)
    expect(h.referrer(builder.address)!.pendingWithdrawShares).toBe(0n)
    expect(checkInvariants(h.chain.ledger, h.programId)).toEqual([])
  })
})
