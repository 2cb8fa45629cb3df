import { describe, expect, it } from "@effect/vitest"
import { activityOf } from "../../../src/domain/userHistory/activityItem.ts"
import { holdingAfter, NO_HOLDING, positionDays, windowEarnings } from "../../../src/domain/userHistory/positionDays.ts"
import type { UserEvent } from "../../../src/domain/userHistory/userEvent.ts"

const V = "vault-a"
const W = "vault-b"
const at = (date: string, hour: number) => Date.parse(`${date}T${String(hour).padStart(2, "0")}:00:00Z`) / 1000
let slot = 0
const event = (name: UserEvent["name"], time: number, data: Record<string, unknown>, vault: string | null = V): UserEvent =>
  ({ name, blockTime: time, slot: ++slot, signature: `s${slot}`, eventIndex: 0, vault, data })

const PRECISION = 1_000_000n
const prices: Record<string, bigint> = { "2026-05-01": 1_000_000n, "2026-05-02": 1_100_000n, "2026-05-03": 1_100_000n }
const priceOf = (date: string) => prices[date] ?? null

describe("position days", () => {
  const events = [
    event("DepositRequested", at("2026-05-01", 9), { grossAmount: "1005", feeAmount: "5", netAmount: "1000" }),
    event("Allocated", at("2026-05-01", 10), { netAmount: "1000", userSharesBefore: "0", userSharesAfter: "1000" }),
    event("ChargedFeesToUser", at("2026-05-02", 1), { totalFeeValue: "11", userSharesAfter: "990" }),
    event("WithdrawalRequested", at("2026-05-02", 2), { amount: "400" }),
    event("Redeemed", at("2026-05-03", 5), { grossAmount: "440", feeAmount: "4", netAmount: "436", userSharesBefore: "990", userSharesAfter: "590" })
  ]

  it("closing holdings, values, flows, fees and earnings per day; earnings telescope to the window's", () => {
    const days = positionDays({ vault: V, from: "2026-05-01", to: "2026-05-03", opening: NO_HOLDING, events, priceOf, precision: PRECISION })
    expect(days.map((d) => [d.date, d.holding.shares, d.holding.pendingShares, d.value, d.earnings])).toEqual([
      ["2026-05-01", 1000n, 0n, 1000n, 0n],
      // the price rose 10 %: 990 shares (400 locked in the request) are worth 1089
      ["2026-05-02", 590n, 400n, 1089n, 89n],
      // 400 shares redeemed for 440 at the same price: no earnings
      ["2026-05-03", 590n, 0n, 649n, 0n]
    ])
    expect(days[0]!.flows).toMatchObject({ deposited: 1000n, depositFees: 5n })
    expect(days[1]!.flows.feesCharged).toBe(11n)
    expect(days[2]!.flows).toMatchObject({ withdrawn: 440n, withdrawalFees: 4n })
    const total = windowEarnings(days, 0n)
    expect(total.earnings).toBe(89n)
    expect(total.earnings).toBe(days.reduce((sum, d) => sum + d.earnings!, 0n))
  })

  it("the opening holding from the newest events before a day; no price with shares is unknown, not zero", () => {
    const before = events.slice(0, 4).reverse()
    expect(holdingAfter(V, before)).toEqual({ shares: 590n, pendingShares: 400n })
    const days = positionDays({ vault: V, from: "2026-05-03", to: "2026-05-04", opening: holdingAfter(V, before), events: events.slice(4), priceOf, precision: PRECISION })
    expect(days[0]!.earnings).toBe(0n)
    expect(days[1]).toMatchObject({ date: "2026-05-04", value: null, earnings: null })
  })

  it("a switch redeems the source's locked shares and credits the target", () => {
    const requested = event("BundleSwitchRequested", at("2026-05-01", 11), { sourceBundle: V, targetBundle: W, sharesAmount: "300" }, null)
    const completed = event("BundleSwitchCompleted", at("2026-05-01", 12), {
      sourceBundle: V, targetBundle: W, sharesRedeemed: "300", grossRedemption: "300", netCreditedToDestination: "297", withdrawalFeeA: "2", depositFeeB: "1", userSharesAfter: "700"
    }, null)
    const source = positionDays({ vault: V, from: "2026-05-01", to: "2026-05-01", opening: NO_HOLDING, events: [...events.slice(0, 2), requested, completed], priceOf, precision: PRECISION })
    expect(source[0]).toMatchObject({ holding: { shares: 700n, pendingShares: 0n }, value: 700n, earnings: 0n })
    expect(source[0]!.flows).toMatchObject({ deposited: 1000n, withdrawn: 300n, withdrawalFees: 2n })
    // the target: the net amount lands as a pending deposit and flows in when it is allocated, once
    const allocated = event("Allocated", at("2026-05-01", 13), { netAmount: "297", userSharesAfter: "297", sharePrice: "1000000" }, W)
    const target = positionDays({ vault: W, from: "2026-05-01", to: "2026-05-01", opening: NO_HOLDING, events: [requested, completed, allocated], priceOf, precision: PRECISION })
    expect(target[0]!.flows).toMatchObject({ deposited: 297n, depositFees: 1n })
    expect(target[0]!.holding).toEqual({ shares: 297n, pendingShares: 0n })
    const beforeAllocation = positionDays({ vault: W, from: "2026-05-01", to: "2026-05-01", opening: NO_HOLDING, events: [requested, completed], priceOf, precision: PRECISION })
    expect(beforeAllocation[0]!.flows).toMatchObject({ deposited: 0n, depositFees: 1n })
    expect(activityOf(completed)).toEqual({
      type: "switchCompleted", vault: V, targetVault: W, sharePrice: null, amounts: { shares: 300n, gross: 300n, fee: 3n, net: 297n }
    })
  })

  it("activity kinds and amounts from the events' fields", () => {
    expect(activityOf(events[0]!)).toEqual({ type: "depositRequested", vault: V, targetVault: null, sharePrice: null, amounts: { gross: 1005n, fee: 5n, net: 1000n } })
    expect(activityOf(events[1]!).amounts).toEqual({ net: 1000n, shares: 1000n })
    expect(activityOf(events[4]!)).toMatchObject({ type: "withdrawalProcessed", amounts: { gross: 440n, fee: 4n, net: 436n, shares: 400n } })
    expect(activityOf(event("RefundedDeposit", 0, { amount: "7" })).amounts).toEqual({ net: 7n })
  })
})
