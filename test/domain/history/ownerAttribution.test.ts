import { describe, expect, it } from "vitest"
import { HistoryReplay } from "../../../src/domain/history/historyReplay.ts"
import type { LoggedEvent } from "../../../src/domain/history/loggedEvent.ts"
import { knownOwner } from "../../../src/domain/history/positionMatch.ts"
import type { DayRows } from "../../../src/domain/history/referrerDailyRow.ts"

const VAULT = "Vau1t11111111111111111111111111111111111111"
const ALICE_BUILDER = "Bui1der1111111111111111111111111111111111111"
const BOB_BUILDER = "0ther11111111111111111111111111111111111111"
const ALICE = "A1ice11111111111111111111111111111111111111"
const BOB = "Bob11111111111111111111111111111111111111111"
/** The vault's pending-deposit token account: what `from` holds in `Allocated` (and old rows' wallet). */
const PENDING_TOKENS = "Pend1ngTokens1111111111111111111111111111111"
const ASSET_TOKENS = "AssetTokens11111111111111111111111111111111"

const DAY = "2026-03-01"
const at = (hour: number) => Date.parse(`${DAY}T${String(hour).padStart(2, "0")}:00:00Z`) / 1000
const END = Date.parse("2026-03-02T00:00:00Z") / 1000

let counter = 0
const event = (name: string, hour: number, data: Record<string, unknown>, extra: Partial<LoggedEvent> = {}): LoggedEvent => {
  counter += 1
  return { slot: counter, signature: `sig${String(counter).padStart(4, "0")}`, eventIndex: 0, blockTime: at(hour), name, vault: VAULT, data, ...extra }
}

const bindBoth = () => [
  event("UserReferrerSet", 1, { user: ALICE, referrer: ALICE_BUILDER, bundleAccountKey: VAULT }),
  event("UserReferrerSet", 1, { user: BOB, referrer: BOB_BUILDER, bundleAccountKey: VAULT })
]

/** Alice then Bob request the same net deposit (500) in one slot, with no shares yet: amounts, shares and counters all tie. */
const twinDeposits = () => {
  const slot = { slot: 100 }
  return [
    event("DepositRequested", 2, { user: ALICE, grossAmount: "500", feeAmount: "0", netAmount: "500" }, slot),
    event("DepositRequested", 2, { user: BOB, grossAmount: "500", feeAmount: "0", netAmount: "500" }, slot)
  ]
}

/** The keeper processes Bob's deposit only; `wallet` is what the log stored for the row. */
const bobsAllocation = (wallet: string | null | undefined) =>
  event("Allocated", 3, {
    from: PENDING_TOKENS, to: ASSET_TOKENS, amount: "500", netAmount: "500", sharePrice: "1000000",
    userSharesBefore: "0", userSharesAfter: "500", totalShares: "500", referredNetDepositsAfter: "500"
  }, wallet === undefined ? {} : { wallet })

const replay = (events: ReadonlyArray<LoggedEvent>) => {
  const history = new HistoryReplay(0)
  const days = [...events.flatMap((e) => history.apply(e)), ...history.closeBefore(END)]
  return { history, days }
}

const row = (days: ReadonlyArray<DayRows>, referrer: string) =>
  days.find((day) => day.date === DAY)!.referrers.find((r) => r.referrer === referrer && r.vault === VAULT)!

describe("HistoryReplay: allocations and redemptions with a stored owner", () => {
  it("trusts the stored wallet only for Allocated/Redeemed and only when it is not the `from` token account", () => {
    expect(knownOwner(bobsAllocation(BOB))).toBe(BOB)
    expect(knownOwner(bobsAllocation(null))).toBe(null)
    expect(knownOwner(bobsAllocation(undefined))).toBe(null)
    // Rows written before migration 0011 (or whose instruction did not tell) hold `from`.
    expect(knownOwner(bobsAllocation(PENDING_TOKENS))).toBe(null)
    expect(knownOwner(event("DepositRequested", 1, { user: BOB }, { wallet: BOB }))).toBe(null)
  })

  it("attributes to the owner's position where the amount match picks the wrong one of two identical pendings", () => {
    counter = 0
    const byAmount = replay([...bindBoth(), ...twinDeposits(), bobsAllocation(null)]).days
    counter = 0
    const byOwner = replay([...bindBoth(), ...twinDeposits(), bobsAllocation(BOB)]).days
    // Without the owner the tie goes to the first in line, Alice: her builder gets Bob's deposit.
    expect(row(byAmount, ALICE_BUILDER)).toMatchObject({ cohortShares: 500n, flowsIn: 500n, referredNetDeposits: 500n })
    expect(row(byAmount, BOB_BUILDER)).toMatchObject({ cohortShares: 0n, flowsIn: 0n, referredNetDeposits: 0n })
    // With it, Bob's builder does.
    expect(row(byOwner, ALICE_BUILDER)).toMatchObject({ cohortShares: 0n, flowsIn: 0n, referredNetDeposits: 0n, attributedUsers: 1 })
    expect(row(byOwner, BOB_BUILDER)).toMatchObject({ cohortShares: 500n, flowsIn: 500n, referredNetDeposits: 500n, attributedUsers: 1 })
    // Vault figures do not depend on the attribution.
    expect(byOwner[0]!.vaults).toEqual(byAmount[0]!.vaults)
  })

  it("takes the amount match for rows without a usable owner (null, or an old row's `from`)", () => {
    for (const wallet of [null, PENDING_TOKENS]) {
      counter = 0
      const { days, history } = replay([...bindBoth(), ...twinDeposits(), bobsAllocation(wallet)])
      expect(row(days, ALICE_BUILDER)).toMatchObject({ cohortShares: 500n, flowsIn: 500n })
      expect(row(days, BOB_BUILDER)).toMatchObject({ cohortShares: 0n, flowsIn: 0n })
      expect(history.unattributed).toBe(0)
      expect(history.matchedByAmount).toBe(1)
    }
  })

  it("keeps the pending amounts right for later amount matches: the owner's pending is settled, the other's stays", () => {
    counter = 0
    const { days, history } = replay([
      ...bindBoth(),
      ...twinDeposits(),
      bobsAllocation(BOB),
      // Bob deposits 300 more; an unowned allocation of 300 finds only him if his 500 was settled.
      event("DepositRequested", 4, { user: BOB, grossAmount: "300", feeAmount: "0", netAmount: "300" }),
      event("Allocated", 5, {
        from: PENDING_TOKENS, amount: "300", netAmount: "300", sharePrice: "1000000", userSharesBefore: "500", userSharesAfter: "800",
        totalShares: "800", referredNetDepositsAfter: "800"
      }),
      // Alice's 500 is still pending: an unowned allocation of 500 finds her (Bob no longer pends 500).
      event("Allocated", 6, {
        from: PENDING_TOKENS, amount: "500", netAmount: "500", sharePrice: "1000000", userSharesBefore: "0", userSharesAfter: "500",
        totalShares: "1300", referredNetDepositsAfter: "500"
      })
    ])
    expect(history.unattributed).toBe(0)
    expect(history.matchedByAmount).toBe(2)
    expect(row(days, BOB_BUILDER)).toMatchObject({ cohortShares: 800n, flowsIn: 800n, referredNetDeposits: 800n })
    expect(row(days, ALICE_BUILDER)).toMatchObject({ cohortShares: 500n, flowsIn: 500n, referredNetDeposits: 500n })
    expect(days[0]!.vaults[0]!.closingTotalShares).toBe(1300n)
  })

  it("waits for the end of the slot when the owner's deposit request is listed after the allocation", () => {
    counter = 0
    const inSlot = { slot: 200 }
    const { days, history } = replay([
      ...bindBoth(),
      event("Allocated", 3, {
        from: PENDING_TOKENS, amount: "40", netAmount: "40", sharePrice: "1000000", userSharesBefore: "0", userSharesAfter: "40",
        totalShares: "40", referredNetDepositsAfter: "40"
      }, { ...inSlot, wallet: BOB }),
      event("DepositRequested", 3, { user: BOB, grossAmount: "40", feeAmount: "0", netAmount: "40" }, inSlot),
      // Had the allocation been settled before the request, Bob would still pend 40, and with 25 more
      // an allocation of 25 would find no position.
      event("DepositRequested", 4, { user: BOB, grossAmount: "25", feeAmount: "0", netAmount: "25" }),
      event("Allocated", 5, {
        from: PENDING_TOKENS, amount: "25", netAmount: "25", sharePrice: "1000000", userSharesBefore: "40", userSharesAfter: "65",
        totalShares: "65", referredNetDepositsAfter: "65"
      })
    ])
    expect(history.unattributed).toBe(0)
    expect(row(days, BOB_BUILDER)).toMatchObject({ cohortShares: 65n, flowsIn: 65n, referredNetDeposits: 65n })
    expect(row(days, ALICE_BUILDER)).toMatchObject({ cohortShares: 0n, flowsIn: 0n, referredNetDeposits: 0n })
  })

  it("settles the owner's redemption where two users have the same pending withdrawal", () => {
    const setup = () => [
      ...bindBoth(),
      event("DepositRequested", 2, { user: ALICE, grossAmount: "100", feeAmount: "0", netAmount: "100" }),
      event("Allocated", 2, {
        from: PENDING_TOKENS, amount: "100", netAmount: "100", sharePrice: "1000000", userSharesBefore: "0", userSharesAfter: "100",
        totalShares: "100", referredNetDepositsAfter: "100"
      }, { wallet: ALICE }),
      event("DepositRequested", 2, { user: BOB, grossAmount: "100", feeAmount: "0", netAmount: "100" }),
      event("Allocated", 2, {
        from: PENDING_TOKENS, amount: "100", netAmount: "100", sharePrice: "1000000", userSharesBefore: "0", userSharesAfter: "100",
        totalShares: "200", referredNetDepositsAfter: "100"
      }, { wallet: BOB }),
      event("WithdrawalRequested", 3, { user: ALICE, amount: "30" }),
      event("WithdrawalRequested", 3, { user: BOB, amount: "30" })
    ]
    // Bob's 30 shares are redeemed; every field ties with Alice's request.
    const redemption = (wallet: string | null) =>
      event("Redeemed", 4, {
        from: ASSET_TOKENS, to: "BobTokens1111111111111111111111111111111111", netAmount: "30", feeAmount: "0", grossAmount: "30",
        sharePrice: "1000000", userSharesBefore: "100", userSharesAfter: "70", totalSharesBefore: "200", totalSharesAfter: "170",
        referredNetDepositsAfter: "70"
      }, { wallet })
    counter = 0
    const byAmount = replay([...setup(), redemption(null)]).days
    counter = 0
    const byOwner = replay([...setup(), redemption(BOB)]).days
    // Without the owner the tie goes to Alice (first in line); with it, to Bob.
    expect(row(byAmount, ALICE_BUILDER)).toMatchObject({ flowsOut: 30n, referredNetDeposits: 70n })
    expect(row(byAmount, BOB_BUILDER)).toMatchObject({ flowsOut: 0n, referredNetDeposits: 100n })
    expect(row(byOwner, ALICE_BUILDER)).toMatchObject({ cohortShares: 70n, flowsOut: 0n, referredNetDeposits: 100n })
    expect(row(byOwner, BOB_BUILDER)).toMatchObject({ cohortShares: 70n, flowsOut: 30n, referredNetDeposits: 70n })
    counter = 0
    const then = replay([
      ...setup(),
      redemption(BOB),
      // Alice's request is still pending, Bob's is not: an unowned redemption of 30 shares finds her.
      event("Redeemed", 5, {
        from: ASSET_TOKENS, netAmount: "30", feeAmount: "0", grossAmount: "30", sharePrice: "1000000", userSharesBefore: "100",
        userSharesAfter: "70", totalSharesBefore: "170", totalSharesAfter: "140", referredNetDepositsAfter: "70"
      })
    ])
    expect(then.history.unattributed).toBe(0)
    expect(row(then.days, ALICE_BUILDER)).toMatchObject({ cohortShares: 70n, flowsOut: 30n, referredNetDeposits: 70n })
  })
})
