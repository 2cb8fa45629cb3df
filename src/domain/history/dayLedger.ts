import { chainEnd, type ValueReport } from "./chainEnd.ts"
import { LegacyFlag } from "./legacyFlags.ts"
import { bigField, isNoneField, type LoggedEvent } from "./loggedEvent.ts"
import type { DayRows, ReferrerDailyRow, VaultDailyRecord } from "./referrerDailyRow.ts"

/** A vault's figures for the day being accumulated (closing values carry over to the next day). */
export interface VaultDay {
  closingSharePrice: bigint | null
  closingTotalShares: bigint | null
  depositsRequested: bigint
  depositFees: bigint
  withdrawalsPaid: bigint
  withdrawalFees: bigint
  feesCharged: bigint
  events: number
}

/** A (referrer, vault) pair's figures for the day being accumulated (cohort and counter carry over). */
export interface PairDay {
  readonly referrer: string
  readonly vault: string
  users: number
  cohortShares: bigint
  referredNetDeposits: bigint
  mfeeShares: bigint
  pfeeShares: bigint
  flowsIn: bigint
  flowsOut: bigint
  flags: number
  /** Counter values reported in `reportSlot`, with where each event found it (null: unknown). */
  reportSlot: number
  reports: Array<ValueReport>
}

const pairKey = (referrer: string, vault: string) => `${referrer}|${vault}`

/**
 * The per-day aggregation of the history replay: one running record per vault and per
 * (referrer, vault), the vault totals and builder counters reported in the current slot (reconciled
 * at its end, since the listed order inside a slot may not be the real one), and the rows of a day.
 */
export class DayLedger {
  private readonly vaults = new Map<string, VaultDay>()
  private readonly pairs = new Map<string, PairDay>()
  /** Pairs whose counter was reported in the current slot. */
  private readonly slotPairs = new Set<PairDay>()
  /** Total-share reports of the current slot, by vault. */
  private readonly slotShareReports = new Map<string, Array<ValueReport>>()

  vault(vault: string): VaultDay {
    let day = this.vaults.get(vault)
    if (day === undefined) {
      day = {
        closingSharePrice: null,
        closingTotalShares: null,
        depositsRequested: 0n,
        depositFees: 0n,
        withdrawalsPaid: 0n,
        withdrawalFees: 0n,
        feesCharged: 0n,
        events: 0
      }
      this.vaults.set(vault, day)
    }
    return day
  }

  pair(referrer: string, vault: string): PairDay {
    const key = pairKey(referrer, vault)
    let pair = this.pairs.get(key)
    if (pair === undefined) {
      pair = {
        referrer, vault, users: 0, cohortShares: 0n, referredNetDeposits: 0n, mfeeShares: 0n, pfeeShares: 0n, flowsIn: 0n, flowsOut: 0n, flags: 0,
        reportSlot: -1, reports: []
      }
      this.pairs.set(key, pair)
    }
    return pair
  }

  /** A vault's total shares after an event (`before`: where it found them, null if unknown). */
  totalShares(vault: string, day: VaultDay, before: bigint | null, after: bigint | null): void {
    if (after === null) return
    day.closingTotalShares = after
    const reports = this.slotShareReports.get(vault)
    if (reports === undefined) this.slotShareReports.set(vault, [{ before, after }])
    else reports.push({ before, after })
  }

  /**
   * Shares that leave the vault's supply without a total in the event: settled builder claims
   * (`shares_redeemed`) and burned dust (`DustSharesBurned.amount`, assumed to be shares).
   */
  burnShares(vault: string, day: VaultDay, shares: bigint | null): void {
    if (shares === null || day.closingTotalShares === null) return
    this.totalShares(vault, day, day.closingTotalShares, day.closingTotalShares - shares)
  }

  /** The builder counter after a bound position's event (`delta`: how the event moves it, null if unknown); None flags the day. */
  counter(pair: PairDay | null, event: LoggedEvent, field: string, delta: bigint | null): void {
    if (pair === null) return
    const value = bigField(event, field)
    if (value === null) {
      if (isNoneField(event, field)) pair.flags |= LegacyFlag.referredNetDepositsUntracked
      return
    }
    if (pair.reportSlot !== event.slot) {
      pair.reportSlot = event.slot
      pair.reports = []
    }
    pair.reports.push({ after: value, before: delta === null ? null : value - delta })
    this.slotPairs.add(pair)
    pair.referredNetDeposits = value
  }

  /**
   * The end of a slot: each builder counter and vault total reported more than once in the slot is
   * set to the end of the chain the reports form (the value no other report started from), since
   * their listed order may not be the real one; ambiguous chains keep the last listed.
   */
  endSlot(): void {
    for (const pair of this.slotPairs) {
      const end = pair.reports.length < 2 ? null : chainEnd(pair.reports)
      if (end !== null) pair.referredNetDeposits = end
    }
    this.slotPairs.clear()
    for (const [vault, reports] of this.slotShareReports) {
      const end = reports.length < 2 ? null : chainEnd(reports)
      const day = this.vaults.get(vault)
      if (end !== null && day !== undefined) day.closingTotalShares = end
    }
    this.slotShareReports.clear()
  }

  /** The rows of `date` as accumulated so far; `flags` are ORed into every referrer row. */
  rows(date: string, partialThrough: number | null, flags: number): DayRows {
    const vaults: Array<VaultDailyRecord> = []
    for (const [vault, day] of this.vaults) vaults.push({ vault, date, ...day })
    const referrers: Array<ReferrerDailyRow> = []
    for (const pair of this.pairs.values()) {
      referrers.push({
        date,
        referrer: pair.referrer,
        vault: pair.vault,
        mfeeShares: pair.mfeeShares,
        pfeeShares: pair.pfeeShares,
        closingSharePrice: this.vaults.get(pair.vault)?.closingSharePrice ?? null,
        cohortShares: pair.cohortShares,
        flowsIn: pair.flowsIn,
        flowsOut: pair.flowsOut,
        attributedUsers: pair.users,
        referredNetDeposits: pair.referredNetDeposits,
        legacyFlags: pair.flags | flags,
        partialThrough
      })
    }
    return { date, vaults, referrers }
  }

  /** Starts a new day: the day's sums go back to zero, closing values and cohorts carry over. */
  resetDay(): void {
    for (const day of this.vaults.values()) {
      day.depositsRequested = 0n
      day.depositFees = 0n
      day.withdrawalsPaid = 0n
      day.withdrawalFees = 0n
      day.feesCharged = 0n
      day.events = 0
    }
    for (const pair of this.pairs.values()) {
      pair.mfeeShares = 0n
      pair.pfeeShares = 0n
      pair.flowsIn = 0n
      pair.flowsOut = 0n
      pair.flags = 0
    }
  }
}
