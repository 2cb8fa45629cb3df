import { chainEnd, type ValueReport } from "./chainEnd.ts"
import type { DayLedger, PairDay } from "./dayLedger.ts"

/** A user's position in one vault as far as the events tell. */
export interface Position {
  readonly vault: string
  readonly user: string
  referrer: string | null
  shares: bigint
  pendingDeposit: bigint
  /** The slot of the last deposit request, and the pending deposit before that slot's requests. */
  depositSlot: number
  pendingBeforeSlot: bigint
  /** Shares of withdrawal requests not redeemed yet (normally at most one), oldest first. */
  pendingWithdrawals: Array<bigint>
  /** Withdrawal request shares listed so far in `requestSlot` (they leave the position at request). */
  requestSlot: number
  requestedInSlot: bigint
  /** Shares the last absolute report of `reportSlot` found missing from the tracked ones (a request listed after it). */
  reportSlot: number
  unexplained: bigint
  /** The slot the fields below describe: the shares before its first event of the position, and its withdrawal requests. */
  touchedSlot: number
  sharesAtSlotStart: bigint
  slotRequests: Array<bigint>
}

const positionKey = (vault: string, user: string) => `${vault}|${user}`
const amountKey = (vault: string, amount: bigint) => `${vault}|${amount}`

const index = (pools: Map<string, Set<Position>>, position: Position, amount: bigint, present: boolean): void => {
  const key = amountKey(position.vault, amount)
  let pool = pools.get(key)
  if (present) {
    if (pool === undefined) {
      pool = new Set()
      pools.set(key, pool)
    }
    pool.add(position)
  } else if (pool !== undefined) {
    pool.delete(position)
    if (pool.size === 0) pools.delete(key)
  }
}

const touch = (position: Position, slot: number): void => {
  if (position.touchedSlot === slot) return
  position.touchedSlot = slot
  position.sharesAtSlotStart = position.shares
  position.slotRequests = []
}

/** Orders of more operations than this are not searched (a slot rarely holds more than three of one position). */
const MAX_ORDERED_OPERATIONS = 7

/**
 * Where a position's shares end after one slot's share reports and withdrawal requests (a request
 * moves shares out without a report), when every order of them that fits, starting from `start`, ends
 * in the same place: each report found the shares it says it found, and no request took more than
 * was there. Null when none fits or they disagree.
 */
export const orderedEnd = (start: bigint, reports: ReadonlyArray<ValueReport>, requests: ReadonlyArray<bigint>): bigint | null => {
  const count = reports.length + requests.length
  if (count > MAX_ORDERED_OPERATIONS) return null
  const used = new Array<boolean>(count).fill(false)
  const ends = new Set<bigint>()
  const visit = (shares: bigint, placed: number): void => {
    if (ends.size > 1) return
    if (placed === count) return void ends.add(shares)
    for (let i = 0; i < count; i++) {
      if (used[i]) continue
      let next: bigint
      if (i < reports.length) {
        const report = reports[i]!
        if (report.before !== null && report.before !== shares) continue
        next = report.after
      } else {
        const request = requests[i - reports.length]!
        if (request > shares) continue
        next = shares - request
      }
      used[i] = true
      visit(next, placed + 1)
      used[i] = false
    }
  }
  visit(start, 0)
  return ends.size === 1 ? [...ends][0]! : null
}

/**
 * The positions of the history replay: shares, pending deposits and withdrawals (indexed by amount
 * for matching), builder bindings (kept in step with the cohort figures of the ledger's pairs), and
 * the share reports of the current slot, reconciled at its end.
 */
export class PositionBook {
  private readonly positions = new Map<string, Position>()
  /** Positions by `vault|amount` of their pending deposit, and of each pending withdrawal's shares. */
  private readonly pendingDeposits = new Map<string, Set<Position>>()
  private readonly pendingWithdrawals = new Map<string, Set<Position>>()
  /** Positions that requested a deposit in the current slot (their pending amount before it may match). */
  private readonly slotDepositors = new Set<Position>()
  /** Share reports of the current slot, by position. */
  private readonly slotPositionReports = new Map<Position, Array<ValueReport>>()

  constructor(private readonly ledger: DayLedger) {}

  position(vault: string, user: string): Position {
    const key = positionKey(vault, user)
    let position = this.positions.get(key)
    if (position === undefined) {
      position = {
        vault, user, referrer: null, shares: 0n, pendingDeposit: 0n, depositSlot: -1, pendingBeforeSlot: 0n, pendingWithdrawals: [],
        requestSlot: -1, requestedInSlot: 0n, reportSlot: -1, unexplained: 0n, touchedSlot: -1, sharesAtSlotStart: 0n, slotRequests: []
      }
      this.positions.set(key, position)
    }
    return position
  }

  /** The position's account closed: it leaves its cohort and every index. */
  close(position: Position): void {
    this.unbind(position)
    this.setPendingDeposit(position, 0n)
    this.setPendingWithdrawals(position, [])
    this.positions.delete(positionKey(position.vault, position.user))
  }

  pairOf(position: Position): PairDay | null {
    return position.referrer === null ? null : this.ledger.pair(position.referrer, position.vault)
  }

  /** Positions of the vault whose whole pending deposit is `amount`. */
  withPendingDeposit(vault: string, amount: bigint): ReadonlySet<Position> {
    return this.pendingDeposits.get(amountKey(vault, amount)) ?? new Set()
  }

  /** Positions of the vault with a pending withdrawal of `shares`. */
  withPendingWithdrawal(vault: string, shares: bigint | null): ReadonlySet<Position> {
    return shares === null ? new Set() : this.pendingWithdrawals.get(amountKey(vault, shares)) ?? new Set()
  }

  /** Positions that requested a deposit in the current slot. */
  get depositorsOfSlot(): ReadonlySet<Position> {
    return this.slotDepositors
  }

  /** A deposit request of `net` in `slot`. */
  requestDeposit(position: Position, slot: number, net: bigint): void {
    if (position.depositSlot !== slot) {
      position.depositSlot = slot
      position.pendingBeforeSlot = position.pendingDeposit
    }
    this.slotDepositors.add(position)
    this.setPendingDeposit(position, position.pendingDeposit + net)
  }

  /** A withdrawal request of `shares`: they leave the position (unless a same-slot report already took them out). */
  requestWithdrawal(position: Position, slot: number, shares: bigint): void {
    touch(position, slot)
    position.slotRequests.push(shares)
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

  setPendingDeposit(position: Position, amount: bigint): void {
    if (position.pendingDeposit > 0n) index(this.pendingDeposits, position, position.pendingDeposit, false)
    position.pendingDeposit = amount
    if (amount > 0n) index(this.pendingDeposits, position, amount, true)
  }

  setPendingWithdrawals(position: Position, shares: Array<bigint>): void {
    for (const amount of position.pendingWithdrawals) index(this.pendingWithdrawals, position, amount, false)
    position.pendingWithdrawals = shares
    for (const amount of shares) index(this.pendingWithdrawals, position, amount, true)
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
  report(position: Position, slot: number, before: bigint | null, after: bigint | null): void {
    if (after === null) return
    touch(position, slot)
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

  bind(position: Position, referrer: string): void {
    if (position.referrer === referrer) return
    this.unbind(position)
    position.referrer = referrer
    const pair = this.ledger.pair(referrer, position.vault)
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

  /**
   * The end of `slot` (after its deferred matches). A position reported twice in one slot (say a fee
   * charge and an allocation in two transactions) ends where the chain of its reports ends,
   * whatever their listed order. When the slot also holds a withdrawal request of it (which moves
   * shares without a report to chain on), where every order of its reports and requests that fits ends.
   */
  endSlot(slot: number | null): void {
    this.slotDepositors.clear()
    for (const [position, reports] of this.slotPositionReports) {
      if (position.requestSlot === slot) {
        // reports and withdrawal requests: the order in which they all fit from the slot's start
        const end = orderedEnd(position.sharesAtSlotStart, reports, position.slotRequests)
        if (end !== null) this.setShares(position, end)
        continue
      }
      if (reports.length < 2) continue
      const end = chainEnd(reports)
      if (end !== null) this.setShares(position, end)
    }
    this.slotPositionReports.clear()
  }
}
