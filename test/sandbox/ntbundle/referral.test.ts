import type { Address } from "@solana/kit"
import { describe, expect, it } from "vitest"
import { setUserReferrerIx } from "../../../src/ntbundle/ix/user.ts"
import { findReferrerPda } from "../../../src/ntbundle/pdas.ts"
import { checkInvariants } from "../../../src/sandbox/ntbundle/invariants.ts"
import { customErrorOf, expectLanded, makeHarness, USDC } from "./harness.ts"
import { fingerprint } from "./fingerprint.ts"
import { flows, managerIx } from "./flows.ts"

const setup = (configure?: Parameters<typeof makeHarness>[0]) => {
  const h = makeHarness(configure)
  const f = flows(h)
  return { h, f, alice: h.wallet("alice"), bob: h.wallet("bob"), builder: h.wallet("builder") }
}

describe("register_referrer", () => {
  it("creates the ReferrerAccount once the builder has a position, and logs ReferrerRegistered", () => {
    const { h, f, builder } = setup()
    expect(customErrorOf(f.register(builder))).toBe(6092)
    f.deposit(builder, 100n * USDC)
    const out = expectLanded(f.register(builder))
    expect(h.referrer(builder.address)).toMatchObject({ bundle: h.vault, referrer: builder.address, active: true, referredNetDeposits: 0n })
    expect(h.referrer(builder.address)?.bump).toBe(findReferrerPda(h.programId, h.vault, builder.address as Address)[1])
    expect(h.events(out)[0]).toMatchObject({ name: "ReferrerRegistered", data: { referrer: builder.address, bundleAccountKey: h.vault } })
    expect(f.register(builder).kind).toBe("preflightFailed")
  })

  it("needs the builder's own net deposits to reach the vault's minimum (ReferrerDepositTooLow 6092)", () => {
    const { h, f, builder } = setup({ vault: (config) => ({ ...config, referral: { ...config.referral!, minDepositAmount: 1_000n * USDC } }) })
    f.deposit(builder, 500n * USDC)
    expect(customErrorOf(f.register(builder))).toBe(6092)
    f.deposit(builder, 600n * USDC)
    expectLanded(f.register(builder))
  })

  it("is refused when referrals are disabled (ReferralsDisabled 6085) and to the manager (6091)", () => {
    const { h, f, builder } = setup({ vault: (config) => ({ ...config, referral: null }) })
    f.deposit(builder, 100n * USDC)
    expect(customErrorOf(f.register(builder))).toBe(6085)
    const withReferrals = setup()
    withReferrals.f.deposit(withReferrals.h.manager, 100n * USDC)
    expect(customErrorOf(withReferrals.f.register(withReferrals.h.manager))).toBe(6091)
    expect(h.referrer(builder.address)).toBeNull()
  })
})

describe("set_user_referrer", () => {
  it("binds a virgin position to a registered builder and logs the rates at binding", () => {
    const { h, f, alice, builder } = setup()
    f.onboardBuilder(builder, 100n * USDC)
    const out = expectLanded(f.attributedDeposit(alice, 1_000n * USDC, builder.address))
    expect(h.user(alice.address)?.referrer).toBe(builder.address)
    const names = h.events(out).map((event) => event.name)
    expect(names).toEqual(["BundleDepositorInitialized", "UserReferrerSet", "DepositRequested"])
    expect(h.events(out)[1]?.data).toMatchObject({ user: alice.address, referrer: builder.address, referralMfeeBps: 0, referralTierIndex: null })
    expect("result" in out && out.result?.logs.some((line) => line.startsWith("Program MemoSq4gqABAXKb96qnH8TysNcWxMyWCqXgDLGmfcHr"))).toBe(true)
  })

  it("refuses a second referrer (ReferralAlreadySet 6086) and changes nothing", () => {
    const { h, f, alice, builder } = setup()
    const other = h.wallet("builder2")
    f.onboardBuilder(builder, 100n * USDC)
    f.onboardBuilder(other, 100n * USDC)
    expectLanded(f.initialize(alice))
    const bind = (referrer: string) => h.send(alice, [setUserReferrerIx({ program: h.programId, bundle: h.vault, user: alice.address as Address, referrer: referrer as Address })])
    expectLanded(bind(builder.address))
    const before = fingerprint(h.chain.ledger)
    expect(customErrorOf(bind(other.address))).toBe(6086)
    expect(fingerprint(h.chain.ledger)).toEqual(before)
    expect(h.user(alice.address)?.referrer).toBe(builder.address)
  })

  it("refuses a position with past activity (UserBundleAccountHasActivity 6087)", () => {
    const { h, f, alice, builder } = setup()
    f.onboardBuilder(builder, 100n * USDC)
    f.deposit(alice, 100n * USDC)
    const bind = h.send(alice, [setUserReferrerIx({ program: h.programId, bundle: h.vault, user: alice.address as Address, referrer: builder.address as Address })])
    expect(customErrorOf(bind)).toBe(6087)
  })

  it("refuses unregistered (6088), deactivated (6091), self (6091) and disabled-vault referrals (6085)", () => {
    const { h, f, alice, bob, builder } = setup()
    expectLanded(f.initialize(alice))
    const bind = (user = alice, referrer: string = builder.address) =>
      h.send(user, [setUserReferrerIx({ program: h.programId, bundle: h.vault, user: user.address as Address, referrer: referrer as Address })])
    expect(customErrorOf(bind())).toBe(6088)
    f.onboardBuilder(builder, 100n * USDC)
    expect(customErrorOf(bind(builder, builder.address))).toBe(6091)
    expectLanded(f.initialize(bob))
    f.onboardBuilder(h.wallet("builder2"), 100n * USDC)
    const deactivate = h.send(h.manager, [managerIx(h, "set_referrer_active", { active: false }, h.wallet("builder2").address)])
    expectLanded(deactivate)
    expect(customErrorOf(bind(bob, h.wallet("builder2").address))).toBe(6091)
    const disable = h.send(h.manager, [managerIx(h, "set_referrer_config", { referrerEnabled: false, referrerMinDepositAmount: 0n })])
    expectLanded(disable)
    expect(customErrorOf(bind())).toBe(6085)
    expect(checkInvariants(h.chain.ledger, h.programId)).toEqual([])
  })
})
