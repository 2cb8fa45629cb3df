import { describe, expect, it } from "vitest"
import { encodeInstructionData } from "../../../src/ntbundle/instructions.ts"
import { customErrorOf, expectLanded, LADDER, makeHarness, USDC } from "./harness.ts"
import { flows, managerIx } from "./flows.ts"

const pauseIx = (h: ReturnType<typeof makeHarness>, signer: string, pause: boolean) => ({
  programId: h.programId as string,
  accounts: [
    { address: signer, isSigner: true, isWritable: true },
    { address: h.vault as string, isSigner: false, isWritable: true },
    { address: h.pdas.bundleTempData, isSigner: false, isWritable: true },
    { address: h.pdas.oracleData, isSigner: false, isWritable: true }
  ],
  data: encodeInstructionData({ name: "pause_deposits_withdrawals", args: { pause } })
})

describe("manager instructions", () => {
  it("sets the tier schedule and logs ReferralTierConfigSet; refuses unordered or oversized schedules (6093)", () => {
    const h = makeHarness()
    const tiers = [{ threshold: 1n, pfeeBps: 0, mfeeBps: 500 }, { threshold: 2n, pfeeBps: 100, mfeeBps: 900 }]
    const out = expectLanded(h.send(h.manager, [managerIx(h, "set_referral_tier_config", { referralTiers: tiers })]))
    expect(h.bundle()).toMatchObject({ tierCount: 2 })
    expect(h.bundle().referralTiers.slice(0, 3)).toEqual([...tiers, { threshold: 0n, pfeeBps: 0, mfeeBps: 0 }])
    expect(h.events(out)[0]).toMatchObject({ name: "ReferralTierConfigSet", data: { tierCount: 2, referralTiers: tiers } })
    const unordered = [tiers[1]!, tiers[0]!]
    expect(customErrorOf(h.send(h.manager, [managerIx(h, "set_referral_tier_config", { referralTiers: unordered })]))).toBe(6093)
    expect(customErrorOf(h.send(h.manager, [managerIx(h, "set_referral_tier_config", { referralTiers: [...LADDER, { threshold: 10n ** 15n, pfeeBps: 0, mfeeBps: 6000 }] })]))).toBe(6093)
  })

  it("accepts configuration only from the vault's manager (UnauthorizedManagerAction 6005)", () => {
    const h = makeHarness()
    const impostor = h.wallet("alice")
    const ix = managerIx(h, "set_referrer_config", { referrerEnabled: false, referrerMinDepositAmount: 0n })
    const forged = { ...ix, accounts: ix.accounts.map((meta, index) => (index === 0 ? { ...meta, address: impostor.address } : meta)) }
    expect(customErrorOf(h.send(impostor, [forged]))).toBe(6005)
    expectLanded(h.send(h.manager, [ix]))
    expect(h.bundle().referrerEnabled).toBe(false)
  })

  it("pauses and resumes requests (PausedDepositsWithdrawals 6038)", () => {
    const h = makeHarness()
    const f = flows(h)
    const alice = h.wallet("alice")
    const out = expectLanded(h.send(h.keeper, [pauseIx(h, h.keeper.address, true)]))
    expect(h.events(out)[0]).toMatchObject({ name: "PausedDepositsWithdrawals", data: { paused: true } })
    expect(customErrorOf(f.requestDeposit(alice, 10n * USDC))).toBe(6038)
    expect(customErrorOf(h.send(h.keeper, [pauseIx(h, h.keeper.address, true)]))).toBe(6038)
    expectLanded(h.send(h.manager, [pauseIx(h, h.manager.address, false)]))
    expectLanded(f.requestDeposit(alice, 10n * USDC))
    expect(customErrorOf(h.send(alice, [pauseIx(h, alice.address, true)]))).toBe(6004)
  })
})
