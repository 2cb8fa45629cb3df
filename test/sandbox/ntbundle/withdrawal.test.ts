import { describe, expect, it } from "vitest"
import { cooldownSeconds } from "../../../src/ntbundle/math.ts"
import { checkInvariants } from "../../../src/sandbox/ntbundle/invariants.ts"
import { customErrorOf, expectLanded, makeHarness, USDC } from "./harness.ts"
import { flows } from "./flows.ts"

const setup = (configure?: Parameters<typeof makeHarness>[0]) => {
  const h = makeHarness(configure)
  return { h, f: flows(h), alice: h.wallet("alice"), builder: h.wallet("builder") }
}

describe("request_withdrawal", () => {
  it("locks the shares, sets the cooldown from the curve and logs WithdrawalRequested", () => {
    const { h, f, alice } = setup()
    f.deposit(alice, 10_000n * USDC)
    const shares = h.user(alice.address)!.shares
    const totalShares = h.bundle().totalShares
    const now = BigInt(h.chain.ledger.clock.blockTime()) + 0n
    const out = expectLanded(f.requestWithdrawal(alice, shares / 2n))
    const cooldown = cooldownSeconds({ tMin: 60n, tMax: 3600n, curve: 1 }, shares / 2n, totalShares)
    const user = h.user(alice.address)!
    expect(user).toMatchObject({ shares: shares - shares / 2n, pendingShares: shares / 2n })
    expect(user.withdrawalAvailableTimestamp - cooldown).toBeGreaterThanOrEqual(now)
    expect(h.bundle().totalShares).toBe(totalShares)
    const event = h.events(out)[0]!
    expect(event).toMatchObject({ name: "WithdrawalRequested", data: { user: alice.address, amount: shares / 2n, cooldownPeriod: cooldown, cooldownEndTimestamp: user.withdrawalAvailableTimestamp } })
    expect(checkInvariants(h.chain.ledger, h.programId)).toEqual([])
  })

  it("refuses more than the holdings (6027), a second request (6028), a pending deposit (6026) and zero (6061)", () => {
    const { h, f, alice } = setup()
    f.deposit(alice, 1_000n * USDC)
    const shares = h.user(alice.address)!.shares
    expect(customErrorOf(f.requestWithdrawal(alice, shares + 1n))).toBe(6027)
    expect(customErrorOf(f.requestWithdrawal(alice, 0n))).toBe(6061)
    expectLanded(f.requestDeposit(alice, 100n * USDC))
    expect(customErrorOf(f.requestWithdrawal(alice, 1n))).toBe(6026)
    expectLanded(f.net())
    expectLanded(f.processDeposit(alice.address))
    expectLanded(f.requestWithdrawal(alice, 10n))
    expect(customErrorOf(f.requestWithdrawal(alice, 10n))).toBe(6028)
  })

  it("waits out the withdrawal delay after the last deposit (WithdrawalDelayNotMet 6054)", () => {
    const { h, f, alice } = setup({ vault: (config) => ({ ...config, withdrawalDelaySeconds: 3600n }) })
    f.deposit(alice, 1_000n * USDC)
    expect(customErrorOf(f.requestWithdrawal(alice, 1_000n))).toBe(6054)
    h.advanceSeconds(3600)
    expectLanded(f.requestWithdrawal(alice, 1_000n))
  })

  it("joins the next redemption cycle when requested after the cutoff", () => {
    const { h, f, alice } = setup()
    f.deposit(alice, 1_000n * USDC)
    const now = BigInt(h.chain.ledger.clock.blockTime())
    const vault = h.chain.ledger.getAccount(h.vault)!
    const data = new Uint8Array(vault.data)
    const view = new DataView(data.buffer)
    view.setBigInt64(326, now - 10n, true)
    view.setBigInt64(334, now + 86_400n, true)
    view.setBigInt64(342, now + 7n * 86_400n, true)
    h.chain.setAccount(h.vault, { ...vault, data })
    expectLanded(f.requestWithdrawal(alice, 1_000n))
    expect(h.user(alice.address)!.withdrawalAvailableTimestamp).toBe(now + 7n * 86_400n)
  })
})

describe("process_withdrawal", () => {
  it("pays the value at the processing price minus the fee once the cooldown has passed, and logs Redeemed", () => {
    const { h, f, alice } = setup()
    f.deposit(alice, 10_000n * USDC)
    const shares = h.user(alice.address)!.shares
    expectLanded(f.requestWithdrawal(alice, shares))
    expect(customErrorOf(f.processWithdrawal(alice.address))).toBe(6054)
    h.advanceSeconds(3600)
    expectLanded(f.updateOracle(100_000n * USDC))
    const bundle = h.bundle()
    const equity = bundle.bundleUnderlyingBalance + h.oracle().averageExternalEquity
    const gross = (shares * equity) / bundle.totalShares
    const fee = (gross * 30n + 9_999n) / 10_000n
    const walletBefore = h.tokenBalance(h.ata(alice.address))
    const treasuryBefore = h.tokenBalance(bundle.treasuryAccount)
    const out = expectLanded(f.processWithdrawal(alice.address))
    expect(h.tokenBalance(h.ata(alice.address)) - walletBefore).toBe(gross - fee)
    expect(h.tokenBalance(bundle.treasuryAccount) - treasuryBefore).toBe(fee)
    expect(h.bundle().totalShares).toBe(bundle.totalShares - shares)
    expect(h.user(alice.address)).toMatchObject({ shares: 0n, pendingShares: 0n, estimatedPendingWithdrawalValue: 0n })
    expect(h.events(out)[0]).toMatchObject({
      name: "Redeemed",
      data: { grossAmount: gross, feeAmount: fee, netAmount: gross - fee, userSharesBefore: shares, userSharesAfter: 0n, totalSharesBefore: bundle.totalShares, referredNetDepositsAfter: null }
    })
    expect(customErrorOf(f.processWithdrawal(alice.address))).toBe(6030)
    expect(checkInvariants(h.chain.ledger, h.programId)).toEqual([])
  })

  it("refuses a payout the vault's own balance cannot cover (InsufficientBundleBalance 6033)", () => {
    const { h, f, alice } = setup({ vault: (config) => ({ ...config, seedUnderlying: 0n, seedExternalEquity: 0n }) })
    f.deposit(alice, 1_000n * USDC)
    expectLanded(f.requestWithdrawal(alice, h.user(alice.address)!.shares))
    h.advanceSeconds(7200)
    expectLanded(f.updateOracle(500n * USDC))
    expect(customErrorOf(f.processWithdrawal(alice.address))).toBe(6033)
  })
})
