import { chainEnd, type ValueReport } from "./chainEnd.ts"
import { LegacyFlag } from "./legacyFlags.ts"
import { bigField, isNoneField, type LoggedEvent, textField } from "./loggedEvent.ts"
import type { DayRows, ReferrerDailyRow, VaultDailyRecord } from "./referrerDailyRow.ts"
import { addUtcDays, utcDayEnd, utcDayOf, utcDayStart } from "./utcDay.ts"

/** A user's position in one vault as far as the events tell. */
interface Position {
  readonly vault: string
  readonly user: string
  referrer: string | null
  shares: bigint
  pendingDeposit: bigint
  /** The slot of the last deposit request, and the pending deposit before that slot's requests. */
  depositSlot: number
  pendingBeforeSlot: bigint
  /** Shares of withdrawal requests not redeemed yet (normally at most one). */
  pendingWithdrawals: Array<bigint>
  /** Withdrawal request shares listed so far in `requestSlot` (they leave the position at request). */
  requestSlot: number
  requestedInSlot: bigint
  /** Shares the last absolute report of `reportSlot` found missing from the tracked ones (a request listed after it). */
  reportSlot: number
  unexplained: bigint
}

interface VaultDay {
  closingSharePrice: bigint | null
  closingTotalShares: bigint | null
  depositsRequested: bigint
  depositFees: bigint
  withdrawalsPaid: bigint
  withdrawalFees: bigint
  feesCharged: bigint
  events: number
}

interface PairDay {
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

const positionKey = (vault: string, user: string) => `${vault}|${user}`
const pairKey = (referrer: string, vault: string) => `${referrer}|${vault}`

/** Keeps the candidates that pass `keep`, unless none does (then the test cannot decide: keep all). */
const narrow = <A>(candidates: ReadonlyArray<A>, keep: (candidate: A) => boolean): ReadonlyArray<A> => {
  if (candidates.length <= 1) return candidates
  const kept = candidates.filter(keep)
  return kept.length > 0 ? kept : candidates
}

/**
 * Replays the program's event log in chain order and cuts it into UTC days: per vault (closing
 * share price and total shares, flows, fees) and per (referrer, vault) (fee shares accrued, cohort
 * shares and size at the close, referred flows, the referred-net-deposit counter, legacy flags).
 *
 * Assumptions where the program is not known (facts §13, §14), all matching the sandbox's model:
 * - `Allocated` and `Redeemed` name no user. The position is found among the vault's positions
 *   with a pending deposit equal to `net_amount` (processing allocates the whole pending deposit) or
 *   a pending withdrawal of `user_shares_before - user_shares_after` shares; ties are broken by the
 *   user's last known shares, then by the builder counter the event reports, then by event order.
 *   Because the order inside a slot is unknown, a request of the same slot may be listed before the
 *   processing it followed (matched on the pending amount before the slot), or after the processing
 *   it preceded (the processing waits for the end of the slot).
 * - `request_withdrawal` moves the shares out of the position at request time (the pending shares
 *   are no longer counted in the cohort's shares).
 * - A position's builder is set once (`UserReferrerSet`) and the binding ends with
 *   `UserBundleAccountClosed`.
 * - The referred-net-deposit counter starts at zero; an event whose `referred_net_deposits_after` is
 *   None leaves it as it was (the program was not tracking it) and flags the day. Allocations move
 *   it by `net_amount`, redemptions by `-gross_amount`, refunds not at all.
 * - Fee-share earnings are `ReferralFeesAccrued` as emitted; claims do not reduce them.
 * The log does not keep the order of transactions inside a slot: events are read by signature then
 * event index, and each slot is reconciled at its end (deferred matches, share reports against the
 * slot's withdrawal requests, counters and total shares in the chain order their reports form).
 * Cohort shares and sizes come from this replay, not from the projection, so that days rebuilt
 * from the backfill and days closed live are computed the same way.
 */
export class HistoryReplay {
  private readonly vaults = new Map<string, VaultDay>()
  private readonly pairs = new Map<string, PairDay>()
  private readonly positions = new Map<string, Position>()
  /** Positions by `vault|amount` of their pending deposit, and of each pending withdrawal's shares. */
  private readonly pendingDeposits = new Map<string, Set<Position>>()
  private readonly pendingWithdrawals = new Map<string, Set<Position>>()
  /** Positions that requested a deposit in the current slot (their pending amount before it may match). */
  private readonly slotDepositors = new Set<Position>()
  private openDay: string | null = null
  /** The slot being applied, and its allocations/redemptions that matched no position yet. */
  private slot: number | null = null
  private deferred: Array<LoggedEvent> = []
  /** Pairs whose counter was reported in the current slot. */
  private readonly slotPairs = new Set<PairDay>()
  /** Total-share reports of the current slot, by vault. */
  private readonly slotShareReports = new Map<string, Array<ValueReport>>()
  /** Share reports of the current slot, by position. */
  private readonly slotPositionReports = new Map<Position, Array<ValueReport>>()
  /** Events whose position could not be found (diagnostics; their vault figures still count). */
  unattributed = 0
  /** The first few of them, `name signature#index`, for the log. */
  readonly unattributedSamples: Array<string> = []

  /** `liveSince`: chain time (unix seconds) the gateway first served live; earlier days are reconstructed. */
  constructor(private readonly liveSince: number) {}

  /** The day being accumulated (null before the first event). */
  get currentDay(): string | null {
    return this.openDay
  }

  /** Closes every open day that ends at or before `unixSeconds`; their rows, oldest first. */
  closeBefore(unixSeconds: number): Array<DayRows> {
    this.endSlot()
    return this.closeDays(unixSeconds)
  }

  private closeDays(unixSeconds: number): Array<DayRows> {
    const closed: Array<DayRows> = []
    while (this.openDay !== null && utcDayEnd(this.openDay) <= unixSeconds) {
      closed.push(this.rowsOf(this.openDay, null))
      this.resetDay()
      this.openDay = addUtcDays(this.openDay, 1)
    }
    return closed
  }

  /** Applies one event (in chain order); returns the days its time closed. */
  apply(event: LoggedEvent): Array<DayRows> {
    if (event.slot !== this.slot) {
      this.endSlot()
      this.slot = event.slot
    }
    const closed = this.closeDays(event.blockTime)
    if (this.openDay === null) this.openDay = utcDayOf(event.blockTime)
    this.applyToState(event)
    return closed
  }

  /** The open day's rows so far, marked provisional through `through`; call `closeBefore(through)` first. */
  provisional(through: number): DayRows | null {
    this.endSlot()
    return this.openDay === null ? null : this.rowsOf(this.openDay, through)
  }

  private rowsOf(date: string, partialThrough: number | null): DayRows {
    const reconstructed = utcDayStart(date) < this.liveSince ? LegacyFlag.reconstructed : 0
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
        legacyFlags: pair.flags | reconstructed,
        partialThrough
      })
    }
    return { date, vaults, referrers }
  }

  private resetDay(): void {
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

  private vaultDay(vault: string): VaultDay {
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

  private pair(referrer: string, vault: string): PairDay {
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

  private position(vault: string, user: string): Position {
    const key = positionKey(vault, user)
    let position = this.positions.get(key)
    if (position === undefined) {
      position = {
        vault, user, referrer: null, shares: 0n, pendingDeposit: 0n, depositSlot: -1, pendingBeforeSlot: 0n, pendingWithdrawals: [],
        requestSlot: -1, requestedInSlot: 0n, reportSlot: -1, unexplained: 0n
      }
      this.positions.set(key, position)
    }
    return position
  }

  private pairOf(position: Position): PairDay | null {
    return position.referrer === null ? null : this.pair(position.referrer, position.vault)
  }

  private setShares(position: Position, shares: bigint | null): void {
    if (shares === null) return
    const pair = this.pairOf(position)
    if (pair !== null) pair.cohortShares += shares - position.shares
    position.shares = shares
  }

  /**
   * An event reporting the position's shares before and after it (excluding shares of pending
   * withdrawals). Inside a slot the listed order may not be the real one, so against the
   * withdrawal requests of the same slot: a report made before requests listed earlier keeps them
   * subtracted; a report that already lacks the shares of a request listed later is remembered,
   * and that request then subtracts nothing.
   */
  private report(position: Position, slot: number, before: bigint | null, after: bigint | null): void {
    if (after === null) return
    const reports = this.slotPositionReports.get(position)
    if (reports === undefined) this.slotPositionReports.set(position, [{ before, after }])
    else reports.push({ before, after })
    const requested = position.requestSlot === slot ? position.requestedInSlot : 0n
    if (requested > 0n && before !== null && before !== position.shares && before === position.shares + requested) {
      this.setShares(position, after - requested)
      return
    }
    position.reportSlot = slot
    position.unexplained = before === null ? 0n : position.shares - before
    this.setShares(position, after)
  }

  /** A withdrawal request of `shares`: they leave the position (unless a same-slot report already took them out). */
  private requestWithdrawal(position: Position, slot: number, shares: bigint): void {
    if (position.requestSlot !== slot) {
      position.requestSlot = slot
      position.requestedInSlot = 0n
    }
    position.requestedInSlot += shares
    this.setPendingWithdrawals(position, [...position.pendingWithdrawals, shares])
    if (position.reportSlot === slot && position.unexplained === shares) {
      position.unexplained = 0n
      return
    }
    this.setShares(position, position.shares - shares)
  }

  private static index(index: Map<string, Set<Position>>, position: Position, amount: bigint, present: boolean): void {
    const key = `${position.vault}|${amount}`
    let pool = index.get(key)
    if (present) {
      if (pool === undefined) {
        pool = new Set()
        index.set(key, pool)
      }
      pool.add(position)
    } else if (pool !== undefined) {
      pool.delete(position)
      if (pool.size === 0) index.delete(key)
    }
  }

  private setPendingDeposit(position: Position, amount: bigint): void {
    if (position.pendingDeposit > 0n) HistoryReplay.index(this.pendingDeposits, position, position.pendingDeposit, false)
    position.pendingDeposit = amount
    if (amount > 0n) HistoryReplay.index(this.pendingDeposits, position, amount, true)
  }

  private setPendingWithdrawals(position: Position, shares: Array<bigint>): void {
    for (const amount of position.pendingWithdrawals) HistoryReplay.index(this.pendingWithdrawals, position, amount, false)
    position.pendingWithdrawals = shares
    for (const amount of shares) HistoryReplay.index(this.pendingWithdrawals, position, amount, true)
  }

  private bind(position: Position, referrer: string): void {
    if (position.referrer === referrer) return
    this.unbind(position)
    position.referrer = referrer
    const pair = this.pair(referrer, position.vault)
    pair.users += 1
    pair.cohortShares += position.shares
  }

  private unbind(position: Position): void {
    const pair = this.pairOf(position)
    if (pair === null) return
    pair.users -= 1
    pair.cohortShares -= position.shares
    position.referrer = null
  }

  /** A vault's total shares after an event (`before`: where it found them, null if unknown). */
  private totalShares(vault: string, day: VaultDay, before: bigint | null, after: bigint | null): void {
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
  private burnShares(vault: string, day: VaultDay, shares: bigint | null): void {
    if (shares === null || day.closingTotalShares === null) return
    this.totalShares(vault, day, day.closingTotalShares, day.closingTotalShares - shares)
  }

  /** The builder counter after a bound position's event (`delta`: how the event moves it, null if unknown); None flags the day. */
  private counter(position: Position | null, event: LoggedEvent, field: string, delta: bigint | null): void {
    const pair = position === null ? null : this.pairOf(position)
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
   * The end of a slot: deferred matches, then each builder counter reported more than once in the
   * slot is set to the end of the chain the reports form (the value no other report started
   * from), since their listed order may not be the real one; ambiguous chains keep the last listed.
   */
  private endSlot(): void {
    this.settleDeferred()
    this.slotDepositors.clear()
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
    // A position reported twice in one slot (say a fee charge and an allocation in two transactions)
    // ends where the chain of its reports ends, whatever their listed order. Not when the slot also
    // holds a withdrawal request of it: a request moves shares without a report to chain on.
    for (const [position, reports] of this.slotPositionReports) {
      if (reports.length < 2 || position.requestSlot === this.slot) continue
      const end = chainEnd(reports)
      if (end !== null) this.setShares(position, end)
    }
    this.slotPositionReports.clear()
  }

  /** The position an `Allocated`/`Redeemed` concerns (see the class comment), or null. */
  private attribute(
    matching: ReadonlyArray<Position>,
    sharesMatch: (position: Position) => boolean,
    counterAfter: bigint | null,
    counterDelta: bigint
  ): Position | null {
    let candidates = narrow(matching, sharesMatch)
    candidates = narrow(candidates, (position) => {
      const pair = this.pairOf(position)
      return counterAfter === null ? pair === null : pair !== null && pair.referredNetDeposits + counterDelta === counterAfter
    })
    return candidates[0] ?? null
  }

  /**
   * The log does not keep the order of transactions inside a slot: an allocation may be listed
   * before the deposit request of the same slot. Unmatched ones are matched again once the whole
   * slot is applied (all of a slot's events share a block time, so they belong to the same day).
   */
  private settleDeferred(): void {
    const waiting = this.deferred
    this.deferred = []
    for (const event of waiting) {
      if (!this.applyUserSide(event, false)) this.noPosition(event)
    }
  }

  private noPosition(event: LoggedEvent): null {
    this.unattributed += 1
    if (this.unattributedSamples.length < 10) this.unattributedSamples.push(`${event.name} ${event.signature}#${event.eventIndex} slot ${event.slot}`)
    return null
  }

  /**
   * The position side of an `Allocated` or `Redeemed`; false when no position matches.
   * `checkShares`: whether the user's last known shares may break ties (not once the slot's later
   * events have moved them).
   */
  private applyUserSide(event: LoggedEvent, checkShares: boolean): boolean {
    const vault = event.vault
    if (vault === null) return true
    if (event.name === "Allocated") {
      const net = bigField(event, "netAmount") ?? bigField(event, "amount") ?? 0n
      const before = bigField(event, "userSharesBefore")
      // The whole pending deposit, or (the slot's order being unknown) what was pending before this slot's requests.
      const matching = new Set(this.pendingDeposits.get(`${vault}|${net}`))
      for (const candidate of this.slotDepositors) {
        if (candidate.vault === vault && candidate.depositSlot === event.slot && candidate.pendingBeforeSlot === net) matching.add(candidate)
      }
      const position = this.attribute(
        [...matching],
        (candidate) => !checkShares || candidate.shares === before,
        bigField(event, "referredNetDepositsAfter"),
        net
      )
      if (position === null) return false
      this.setPendingDeposit(position, position.pendingDeposit > net ? position.pendingDeposit - net : 0n)
      position.pendingBeforeSlot = 0n
      this.report(position, event.slot, before, bigField(event, "userSharesAfter"))
      const pair = this.pairOf(position)
      if (pair !== null) pair.flowsIn += net
      this.counter(position, event, "referredNetDepositsAfter", net)
      return true
    }
    const gross = bigField(event, "grossAmount") ?? 0n
    const before = bigField(event, "userSharesBefore")
    const after = bigField(event, "userSharesAfter")
    const redeemed = before !== null && after !== null ? before - after : null
    const position = this.attribute(
      [...(this.pendingWithdrawals.get(`${vault}|${redeemed}`) ?? [])],
      (candidate) => !checkShares || candidate.shares === after || candidate.shares === before,
      bigField(event, "referredNetDepositsAfter"),
      -gross
    )
    if (position === null) return false
    const left = [...position.pendingWithdrawals]
    left.splice(left.indexOf(redeemed!), 1)
    this.setPendingWithdrawals(position, left)
    // Redeeming moves no shares of the position itself (they left it at request): before = after.
    this.report(position, event.slot, after, after)
    const pair = this.pairOf(position)
    if (pair !== null) pair.flowsOut += gross
    this.counter(position, event, "referredNetDepositsAfter", -gross)
    return true
  }

  private applyToState(event: LoggedEvent): void {
    const vault = event.vault
    const day = vault === null ? null : this.vaultDay(vault)
    if (day !== null) day.events += 1
    const user = textField(event, "user")
    switch (event.name) {
      case "DepositRequested": {
        if (day !== null) {
          day.depositsRequested += bigField(event, "grossAmount") ?? 0n
          day.depositFees += bigField(event, "feeAmount") ?? 0n
        }
        if (vault !== null && user !== null) {
          const position = this.position(vault, user)
          if (position.depositSlot !== event.slot) {
            position.depositSlot = event.slot
            position.pendingBeforeSlot = position.pendingDeposit
          }
          this.slotDepositors.add(position)
          this.setPendingDeposit(position, position.pendingDeposit + (bigField(event, "netAmount") ?? 0n))
        }
        return
      }
      case "RefundedDeposit": {
        if (vault === null || user === null) return
        const position = this.position(vault, user)
        this.setPendingDeposit(position, 0n)
        // A refund returns a deposit that was never allocated: the counter does not move (sandbox model).
        this.counter(position, event, "referredNetDepositsAfter", 0n)
        return
      }
      case "Allocated": {
        if (vault === null || day === null) return
        day.closingSharePrice = bigField(event, "sharePrice") ?? day.closingSharePrice
        const total = bigField(event, "totalShares")
        const userBefore = bigField(event, "userSharesBefore")
        const userAfter = bigField(event, "userSharesAfter")
        const minted = userBefore === null || userAfter === null ? null : userAfter - userBefore
        this.totalShares(vault, day, total === null || minted === null ? null : total - minted, total)
        if (!this.applyUserSide(event, true)) this.deferred.push(event)
        return
      }
      case "WithdrawalRequested": {
        if (vault === null || user === null) return
        const position = this.position(vault, user)
        this.requestWithdrawal(position, event.slot, bigField(event, "amount") ?? 0n)
        return
      }
      case "Redeemed": {
        if (vault === null || day === null) return
        day.withdrawalsPaid += bigField(event, "grossAmount") ?? 0n
        day.withdrawalFees += bigField(event, "feeAmount") ?? 0n
        day.closingSharePrice = bigField(event, "sharePrice") ?? day.closingSharePrice
        this.totalShares(vault, day, bigField(event, "totalSharesBefore"), bigField(event, "totalSharesAfter"))
        if (!this.applyUserSide(event, true)) this.deferred.push(event)
        return
      }
      case "ChargedFeesToUser": {
        if (day !== null) {
          day.closingSharePrice = bigField(event, "sharePrice") ?? day.closingSharePrice
          day.feesCharged += bigField(event, "totalFeeValue") ?? 0n
        }
        if (vault !== null && user !== null) {
          const after = bigField(event, "userSharesAfter")
          const fees = bigField(event, "totalFeeShares")
          this.report(this.position(vault, user), event.slot, after === null || fees === null ? null : after + fees, after)
        }
        return
      }
      case "UserReferrerSet": {
        const referrer = textField(event, "referrer")
        if (vault !== null && user !== null && referrer !== null) this.bind(this.position(vault, user), referrer)
        return
      }
      case "UserBundleAccountClosed": {
        if (vault === null || user === null) return
        const position = this.position(vault, user)
        this.counter(position, event, "referredNetDepositsAfter", null)
        this.unbind(position)
        this.setPendingDeposit(position, 0n)
        this.setPendingWithdrawals(position, [])
        this.positions.delete(positionKey(vault, user))
        return
      }
      case "ReferrerRegistered": {
        const referrer = textField(event, "referrer")
        if (vault !== null && referrer !== null) this.pair(referrer, vault)
        return
      }
      case "ReferralFeesAccrued": {
        const referrer = textField(event, "referrer")
        if (vault === null || referrer === null) return
        const pair = this.pair(referrer, vault)
        pair.mfeeShares += bigField(event, "referrerMfeeShares") ?? 0n
        pair.pfeeShares += bigField(event, "referrerPfeeShares") ?? 0n
        return
      }
      case "BundleSwitchCompleted":
      case "BundleSwitchFallbackToWallet": {
        // The source side: the redeemed shares leave the source vault's position (its counter moves).
        const source = textField(event, "sourceBundle")
        if (source === null || user === null) return
        const position = this.position(source, user)
        this.setPendingWithdrawals(position, [])
        this.report(position, event.slot, bigField(event, "userSharesBefore"), bigField(event, "userSharesAfter"))
        const pair = this.pairOf(position)
        const gross = bigField(event, "grossRedemption") ?? 0n
        if (pair !== null) pair.flowsOut += gross
        this.counter(position, event, "sourceReferredNetDepositsAfter", -gross)
        return
      }
      case "OracleUpdated": {
        if (vault === null || day === null) return
        const total = bigField(event, "totalShares")
        this.totalShares(vault, day, total, total)
        return
      }
      case "ManagerWithdrawal":
      case "ManagerWithdrawalWithSplit": {
        if (vault === null || day === null) return
        const after = bigField(event, "totalSharesAfter")
        const redeemed = ["managerShares", "managerPfeeShares", "managerMfeeShares", "partnerPfeeShares", "partnerMfeeShares"]
          .reduce((sum, field) => sum + (bigField(event, field) ?? 0n), 0n)
        this.totalShares(vault, day, after === null ? null : after + redeemed, after)
        return
      }
      case "ReferrerWithdrawalProcessed": {
        if (vault !== null && day !== null) this.burnShares(vault, day, bigField(event, "sharesRedeemed"))
        return
      }
      case "DustSharesBurned": {
        if (vault !== null && day !== null) this.burnShares(vault, day, bigField(event, "amount"))
        return
      }
      default:
        return
    }
  }
}
