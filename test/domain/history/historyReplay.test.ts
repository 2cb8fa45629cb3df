import { describe, expect, it } from "vitest"
import { HistoryReplay } from "../../../src/domain/history/historyReplay.ts"
import { LegacyFlag } from "../../../src/domain/history/legacyFlags.ts"
import type { LoggedEvent } from "../../../src/domain/history/loggedEvent.ts"
import type { DayRows } from "../../../src/domain/history/referrerDailyRow.ts"
import { cutAtDate } from "../../../src/domain/history/datePage.ts"

const VAULT = "Vau1t11111111111111111111111111111111111111"
const BUILDER = "Bui1der1111111111111111111111111111111111111"
const OTHER = "0ther11111111111111111111111111111111111111"
const ALICE = "A1ice11111111111111111111111111111111111111"
const BOB = "Bob11111111111111111111111111111111111111111"

const at = (date: string, hour: number) => Date.parse(`${date}T${String(hour).padStart(2, "0")}:00:00Z`) / 1000
let slot = 0
const event = (name: string, time: number, data: Record<string, unknown>, vault: string | null = VAULT): LoggedEvent => ({
  slot: ++slot,
  signature: `sig${slot}`,
  eventIndex: 0,
  blockTime: time,
  name,
  vault,
  data
})

const run = (replay: HistoryReplay, events: ReadonlyArray<LoggedEvent>, through: number): Array<DayRows> => [
  ...events.flatMap((e) => replay.apply(e)),
  ...replay.closeBefore(through)
]

const builderRow = (days: ReadonlyArray<DayRows>, date: string, referrer = BUILDER) =>
  days.find((day) => day.date === date)?.referrers.find((row) => row.referrer === referrer && row.vault === VAULT)

/** Alice (bound to BUILDER) holds 100 shares and has 50 pending; in `inSlot` her deposit is allocated (100 -> 150) and a fee of 3 shares charged (150 -> 147). */
const allocationAndFeeInOneSlot = (inSlot: number) => {
  const day = "2026-03-01"
  const setup = () => [
    event("UserReferrerSet", at(day, 1), { user: ALICE, referrer: BUILDER, bundleAccountKey: VAULT }),
    event("ChargedFeesToUser", at(day, 1), { user: ALICE, sharePrice: "1000000", totalFeeValue: "0", totalFeeShares: "0", userSharesAfter: "100" }),
    event("DepositRequested", at(day, 2), { user: ALICE, grossAmount: "50", feeAmount: "0", netAmount: "50" })
  ]
  const allocation = () => ({
    ...event("Allocated", at(day, 3), { netAmount: "50", sharePrice: "1000000", userSharesBefore: "100", userSharesAfter: "150", totalShares: "150" }),
    slot: inSlot
  })
  const fee = () => ({
    ...event("ChargedFeesToUser", at(day, 3), { user: ALICE, sharePrice: "1000000", totalFeeValue: "3", totalFeeShares: "3", userSharesAfter: "147" }),
    slot: inSlot
  })
  return { setup, allocation, fee }
}

describe("HistoryReplay", () => {
  // Alice (bound to BUILDER) and Bob (bound to OTHER) both deposit 500 net on 02-01; processing names
  // no user, so each allocation is matched by its pending amount, shares before and reported counter.
  const day1 = "2026-03-01"
  const day2 = "2026-03-02"
  const scenario = () => [
    event("ReferrerRegistered", at(day1, 1), { referrer: BUILDER, bundleAccountKey: VAULT }),
    event("UserReferrerSet", at(day1, 2), { user: ALICE, referrer: BUILDER, bundleAccountKey: VAULT }),
    event("UserReferrerSet", at(day1, 2), { user: BOB, referrer: OTHER, bundleAccountKey: VAULT }),
    event("DepositRequested", at(day1, 3), { user: ALICE, grossAmount: "505", feeAmount: "5", netAmount: "500" }),
    event("DepositRequested", at(day1, 3), { user: BOB, grossAmount: "505", feeAmount: "5", netAmount: "500" }),
    // Both are pending 500 with 0 shares and either builder's counter would become 500: the event order
    // decides (Alice requested first). Bob's deposit stays pending.
    event("Allocated", at(day1, 4), {
      netAmount: "500", sharePrice: "1000000", userSharesBefore: "0", userSharesAfter: "500", totalShares: "500",
      referredNetDepositsAfter: "500"
    }),
    event("ReferralFeesAccrued", at(day1, 20), { referrer: BUILDER, referrerMfeeShares: "3", referrerPfeeShares: "1" }),
    event("ChargedFeesToUser", at(day1, 20), { user: ALICE, sharePrice: "1100000", totalFeeValue: "9", userSharesAfter: "490" }),
    // day 2: Alice withdraws 90 shares (moved out at request), redeemed for 99 gross.
    event("WithdrawalRequested", at(day2, 5), { user: ALICE, amount: "90" }),
    event("Redeemed", at(day2, 6), {
      grossAmount: "99", feeAmount: "1", sharePrice: "1100000", userSharesBefore: "490", userSharesAfter: "400",
      totalSharesAfter: "910", referredNetDepositsAfter: "401"
    }),
    event("ReferralFeesAccrued", at(day2, 7), { referrer: BUILDER, referrerMfeeShares: "2", referrerPfeeShares: "0" })
  ]

  it("closes each UTC day once, with the cohort, flows, earnings and counter at the close", () => {
    slot = 0
    const replay = new HistoryReplay(at("2026-03-02", 12))
    const events = scenario()
    const days = run(replay, events, at("2026-03-03", 0))
    expect(days.map((day) => day.date)).toEqual([day1, day2])
    // Closing again at the same time closes nothing more.
    expect(replay.closeBefore(at("2026-03-03", 0))).toEqual([])
    const first = builderRow(days, day1)!
    expect(first).toMatchObject({
      mfeeShares: 3n, pfeeShares: 1n, closingSharePrice: 1_100_000n, cohortShares: 490n, flowsIn: 500n, flowsOut: 0n,
      attributedUsers: 1, referredNetDeposits: 500n, legacyFlags: LegacyFlag.reconstructed, partialThrough: null
    })
    // The allocation went to Alice: Bob (OTHER) has no shares and no counter movement.
    expect(builderRow(days, day1, OTHER)).toMatchObject({ cohortShares: 0n, attributedUsers: 1, referredNetDeposits: 0n, flowsIn: 0n })
    const second = builderRow(days, day2)!
    // day 2 began before live (12:00 on day 2): reconstructed as well.
    expect(second).toMatchObject({
      mfeeShares: 2n, pfeeShares: 0n, cohortShares: 400n, flowsIn: 0n, flowsOut: 99n, attributedUsers: 1, referredNetDeposits: 401n
    })
    const vault1 = days[0]!.vaults.find((row) => row.vault === VAULT)!
    expect(vault1).toMatchObject({
      closingSharePrice: 1_100_000n, closingTotalShares: 500n, depositsRequested: 1010n, depositFees: 10n, feesCharged: 9n
    })
    expect(days[1]!.vaults[0]).toMatchObject({ closingTotalShares: 910n, withdrawalsPaid: 99n, withdrawalFees: 1n, depositsRequested: 0n })
  })

  it("carries closing values over quiet days and marks days after going live as not reconstructed", () => {
    slot = 0
    const replay = new HistoryReplay(at("2026-03-02", 0))
    const days = run(replay, scenario(), at("2026-03-05", 0))
    expect(days.map((day) => day.date)).toEqual([day1, day2, "2026-03-03", "2026-03-04"])
    expect(builderRow(days, day1)!.legacyFlags).toBe(LegacyFlag.reconstructed)
    expect(builderRow(days, day2)!.legacyFlags).toBe(0)
    expect(builderRow(days, "2026-03-04")).toMatchObject({
      mfeeShares: 0n, flowsOut: 0n, cohortShares: 400n, referredNetDeposits: 401n, closingSharePrice: 1_100_000n, attributedUsers: 1
    })
    const provisional = replay.provisional(at("2026-03-05", 3))!
    expect(provisional.date).toBe("2026-03-05")
    expect(provisional.referrers.every((row) => row.partialThrough === at("2026-03-05", 3))).toBe(true)
  })

  it("flags the day of a bound user's event without a tracked counter, and the flag does not leak to the next day", () => {
    slot = 0
    const replay = new HistoryReplay(0)
    const days = run(replay, [
      event("UserReferrerSet", at(day1, 1), { user: ALICE, referrer: BUILDER, bundleAccountKey: VAULT }),
      event("DepositRequested", at(day1, 2), { user: ALICE, grossAmount: "100", feeAmount: "0", netAmount: "100" }),
      event("Allocated", at(day1, 3), {
        netAmount: "100", sharePrice: "1000000", userSharesBefore: "0", userSharesAfter: "100", totalShares: "100",
        referredNetDepositsAfter: null
      }),
      event("ChargedFeesToUser", at(day2, 3), { user: ALICE, sharePrice: "1000000", totalFeeValue: "0", userSharesAfter: "100" })
    ], at("2026-03-03", 0))
    expect(builderRow(days, day1)).toMatchObject({ legacyFlags: LegacyFlag.referredNetDepositsUntracked, referredNetDeposits: 0n, cohortShares: 100n, flowsIn: 100n })
    expect(builderRow(days, day2)!.legacyFlags).toBe(0)
  })

  it("matches an allocation by the builder counter it reports when amounts and shares tie", () => {
    slot = 0
    const replay = new HistoryReplay(0)
    const days = run(replay, [
      event("UserReferrerSet", at(day1, 1), { user: ALICE, referrer: BUILDER, bundleAccountKey: VAULT }),
      event("UserReferrerSet", at(day1, 1), { user: BOB, referrer: OTHER, bundleAccountKey: VAULT }),
      // A third user of OTHER's had a refund reporting OTHER's counter at 30.
      event("UserReferrerSet", at(day1, 1), { user: "Caro1111111111111111111111111111111111111111", referrer: OTHER, bundleAccountKey: VAULT }),
      event("RefundedDeposit", at(day1, 1), { user: "Caro1111111111111111111111111111111111111111", amount: "5", referredNetDepositsAfter: "30" }),
      event("DepositRequested", at(day1, 2), { user: ALICE, grossAmount: "70", feeAmount: "0", netAmount: "70" }),
      event("DepositRequested", at(day1, 2), { user: BOB, grossAmount: "70", feeAmount: "0", netAmount: "70" }),
      // 30 + 70 = 100: Bob's, although Alice is first in line.
      event("Allocated", at(day1, 3), {
        netAmount: "70", sharePrice: "1000000", userSharesBefore: "0", userSharesAfter: "70", totalShares: "70", referredNetDepositsAfter: "100"
      }),
      event("Allocated", at(day1, 4), {
        netAmount: "70", sharePrice: "1000000", userSharesBefore: "0", userSharesAfter: "70", totalShares: "140", referredNetDepositsAfter: "70"
      })
    ], at("2026-03-02", 0))
    expect(builderRow(days, day1)).toMatchObject({ cohortShares: 70n, flowsIn: 70n, referredNetDeposits: 70n })
    expect(builderRow(days, day1, OTHER)).toMatchObject({ cohortShares: 70n, flowsIn: 70n, referredNetDeposits: 100n, attributedUsers: 2 })
    expect(replay.unattributed).toBe(0)
  })

  it("matches an allocation listed before its deposit request in the same slot once the slot is complete", () => {
    slot = 0
    const replay = new HistoryReplay(0)
    const sameSlot = (e: LoggedEvent): LoggedEvent => ({ ...e, slot: 7 })
    const days = run(replay, [
      event("UserReferrerSet", at(day1, 1), { user: ALICE, referrer: BUILDER, bundleAccountKey: VAULT }),
      sameSlot(event("Allocated", at(day1, 2), {
        netAmount: "40", sharePrice: "1000000", userSharesBefore: "0", userSharesAfter: "40", totalShares: "40", referredNetDepositsAfter: "40"
      })),
      sameSlot(event("DepositRequested", at(day1, 2), { user: ALICE, grossAmount: "40", feeAmount: "0", netAmount: "40" }))
    ], at("2026-03-02", 0))
    expect(builderRow(days, day1)).toMatchObject({ cohortShares: 40n, flowsIn: 40n, referredNetDeposits: 40n })
    expect(replay.unattributed).toBe(0)
  })

  it("counts a withdrawal request once whichever way it is listed against a fee charge of the same slot", () => {
    // Alice holds 100 shares; in one slot a fee of 2 shares is charged and 30 shares are requested.
    const setup = () => [
      event("UserReferrerSet", at(day1, 1), { user: ALICE, referrer: BUILDER, bundleAccountKey: VAULT }),
      event("ChargedFeesToUser", at(day1, 2), { user: ALICE, sharePrice: "1000000", totalFeeValue: "0", totalFeeShares: "0", userSharesAfter: "100" })
    ]
    const inSlot = (e: LoggedEvent): LoggedEvent => ({ ...e, slot: 50 })
    const request = () => inSlot(event("WithdrawalRequested", at(day1, 3), { user: ALICE, amount: "30" }))
    // The fee first (100 -> 98), then the request (98 -> 68), listed the other way round.
    const feeFirst = () => inSlot(event("ChargedFeesToUser", at(day1, 3), { user: ALICE, sharePrice: "1000000", totalFeeValue: "2", totalFeeShares: "2", userSharesAfter: "98" }))
    // The request first (100 -> 70), then the fee (70 -> 68), listed the other way round.
    const feeAfter = () => inSlot(event("ChargedFeesToUser", at(day1, 3), { user: ALICE, sharePrice: "1000000", totalFeeValue: "2", totalFeeShares: "2", userSharesAfter: "68" }))
    for (const order of [[request, feeFirst], [feeFirst, request], [feeAfter, request], [request, feeAfter]]) {
      slot = 0
      const replay = new HistoryReplay(0)
      const days = run(replay, [...setup(), ...order.map((make) => make())], at("2026-03-02", 0))
      expect(builderRow(days, day1)!.cohortShares).toBe(68n)
    }
  })

  it("ends a position at zero when one slot allocates its deposit, charges a fee and takes a request for every share, whatever their listed order", () => {
    // Alice holds 100 shares and has 50 pending; in one slot her deposit is allocated (100 -> 150), a
    // fee of 3 shares is charged (150 -> 147), then she asks to withdraw all 147.
    const { setup, allocation, fee } = allocationAndFeeInOneSlot(80)
    const request = () => ({ ...event("WithdrawalRequested", at(day1, 3), { user: ALICE, amount: "147" }), slot: 80 })
    const orders = [[allocation, fee, request], [allocation, request, fee], [fee, allocation, request], [fee, request, allocation], [request, allocation, fee], [request, fee, allocation]]
    for (const order of orders) {
      slot = 0
      const replay = new HistoryReplay(0)
      const days = run(replay, [...setup(), ...order.map((make) => make())], at("2026-03-02", 0))
      expect(builderRow(days, day1)!.cohortShares, order.map((make) => make().name).join(", ")).toBe(0n)
    }
  })

  it("ends a position where the chain of its share reports in one slot ends, whatever their listed order", () => {
    // Alice holds 100 shares and has 50 pending; in one slot her deposit is allocated (100 -> 150)
    // and then a fee of 3 shares is charged (150 -> 147), in two transactions listed either way round.
    const { setup, allocation, fee } = allocationAndFeeInOneSlot(70)
    for (const order of [[allocation, fee], [fee, allocation]]) {
      slot = 0
      const replay = new HistoryReplay(0)
      const days = run(replay, [...setup(), ...order.map((make) => make())], at("2026-03-02", 0))
      expect(builderRow(days, day1)!.cohortShares).toBe(147n)
    }
  })

  it("takes the builder counter at the end of a slot's chain of reports, whatever their listed order", () => {
    slot = 0
    const replay = new HistoryReplay(0)
    const inSlot = (e: LoggedEvent): LoggedEvent => ({ ...e, slot: 90 })
    const days = run(replay, [
      event("UserReferrerSet", at(day1, 1), { user: ALICE, referrer: BUILDER, bundleAccountKey: VAULT }),
      event("UserReferrerSet", at(day1, 1), { user: BOB, referrer: BUILDER, bundleAccountKey: VAULT }),
      event("DepositRequested", at(day1, 1), { user: BOB, grossAmount: "50", feeAmount: "0", netAmount: "50" }),
      event("Allocated", at(day1, 1), {
        netAmount: "50", sharePrice: "1000000", userSharesBefore: "0", userSharesAfter: "50", totalShares: "50", referredNetDepositsAfter: "50"
      }),
      event("WithdrawalRequested", at(day1, 2), { user: BOB, amount: "20" }),
      event("DepositRequested", at(day1, 2), { user: ALICE, grossAmount: "70", feeAmount: "0", netAmount: "70" }),
      // Really: Alice's allocation (50 -> 120), then Bob's redemption (120 -> 100); listed the other way round.
      inSlot(event("Redeemed", at(day1, 3), {
        grossAmount: "20", feeAmount: "0", sharePrice: "1000000", userSharesBefore: "50", userSharesAfter: "30", totalSharesAfter: "100",
        referredNetDepositsAfter: "100"
      })),
      inSlot(event("Allocated", at(day1, 3), {
        netAmount: "70", sharePrice: "1000000", userSharesBefore: "0", userSharesAfter: "70", totalShares: "120", referredNetDepositsAfter: "120"
      }))
    ], at("2026-03-02", 0))
    expect(builderRow(days, day1)).toMatchObject({ referredNetDeposits: 100n, cohortShares: 100n, flowsIn: 120n, flowsOut: 20n })
  })

  it("closes shares outstanding from reported totals, less settled claims, whatever the order inside a slot", () => {
    slot = 0
    const replay = new HistoryReplay(0)
    const inSlot = (e: LoggedEvent): LoggedEvent => ({ ...e, slot: 70 })
    const days = run(replay, [
      event("OracleUpdated", at(day1, 1), { totalShares: "1000", averageExternalEquity: "0", bundleUnderlyingBalance: "1000" }),
      // Really: an allocation of 200 (1000 -> 1200), then the oracle update reporting 1200; listed the other way round.
      inSlot(event("OracleUpdated", at(day1, 2), { totalShares: "1200", averageExternalEquity: "0", bundleUnderlyingBalance: "1200" })),
      inSlot(event("Allocated", at(day1, 2), { netAmount: "200", sharePrice: "1000000", userSharesBefore: "0", userSharesAfter: "200", totalShares: "1200" })),
      event("ReferrerWithdrawalProcessed", at(day2, 1), { referrer: BUILDER, sharesRedeemed: "15", redemptionAmount: "15" })
    ], at("2026-03-03", 0))
    expect(days.map((day) => day.vaults[0]!.closingTotalShares)).toEqual([1200n, 1185n])
  })

  it("never splits a date across pages", () => {
    const rows = [
      { date: "d1", v: 1 }, { date: "d2", v: 1 }, { date: "d2", v: 2 }, { date: "d3", v: 1 }
    ]
    expect(cutAtDate(rows.slice(0, 3), 2)).toEqual({ page: [rows[0]], more: true, wholeDate: null })
    expect(cutAtDate(rows, 4)).toEqual({ page: rows, more: false, wholeDate: null })
    expect(cutAtDate(rows.slice(1, 4), 1)).toEqual({ page: [], more: true, wholeDate: "d2" })
    expect(cutAtDate(rows.slice(0, 4), 3)).toEqual({ page: rows.slice(0, 3), more: true, wholeDate: null })
  })
})
