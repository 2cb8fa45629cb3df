import { DayLedger } from "./dayLedger.ts"
import { LegacyFlag } from "./legacyFlags.ts"
import { bigField, type LoggedEvent, textField } from "./loggedEvent.ts"
import { PositionBook } from "./positionBook.ts"
import { knownOwner, processedPosition } from "./positionMatch.ts"
import { settleProcessing } from "./processing.ts"
import type { DayRows } from "./referrerDailyRow.ts"
import { addUtcDays, utcDayEnd, utcDayOf, utcDayStart } from "./utcDay.ts"

/**
 * Replays the program's event log in chain order and cuts it into UTC days: per vault (closing
 * share price and total shares, flows, fees) and per (referrer, vault) (fee shares accrued, cohort
 * shares and size at the close, referred flows, the referred-net-deposit counter, legacy flags).
 * The day's figures are kept by a `DayLedger`, the positions by a `PositionBook`.
 *
 * Assumptions where the program is not known (facts §13, §14), all matching the sandbox's model:
 * - `Allocated` and `Redeemed` name no user. The event log stores the position owner of the
 *   emitting instruction for them; where it does not (older rows), the position is matched by its
 *   pending amounts (see `processedPosition`). Because the order inside a slot is unknown, a
 *   request of the same slot may be listed before the processing it followed (matched on the
 *   pending amount before the slot), or after the processing it preceded (the processing waits for
 *   the end of the slot).
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
  private readonly ledger = new DayLedger()
  private readonly book = new PositionBook(this.ledger)
  private openDay: string | null = null
  /** The slot being applied, and its allocations/redemptions whose position is not known yet. */
  private slot: number | null = null
  private deferred: Array<LoggedEvent> = []
  /** Events whose position could not be found (diagnostics; their vault figures still count). */
  unattributed = 0
  /** The first few of them, `name signature#index`, for the log. */
  readonly unattributedSamples: Array<string> = []
  /** Allocations/redemptions without a stored owner that were matched by their amounts (diagnostics). */
  matchedByAmount = 0

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
      this.ledger.resetDay()
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
    return this.ledger.rows(date, partialThrough, utcDayStart(date) < this.liveSince ? LegacyFlag.reconstructed : 0)
  }

  /**
   * The end of a slot: its deferred allocations/redemptions first (all of a slot's events share a
   * block time, so they belong to the same day), then the ledger's and the positions' reports.
   */
  private endSlot(): void {
    const waiting = this.deferred
    this.deferred = []
    for (const event of waiting) {
      if (!this.applyProcessing(event, false)) this.noPosition(event)
    }
    this.book.endSlot(this.slot)
    this.ledger.endSlot()
  }

  private noPosition(event: LoggedEvent): void {
    this.unattributed += 1
    if (this.unattributedSamples.length < 10) this.unattributedSamples.push(`${event.name} ${event.signature}#${event.eventIndex} slot ${event.slot}`)
  }

  /** The position side of an `Allocated` or `Redeemed`; false when its position is not known (yet). */
  private applyProcessing(event: LoggedEvent, firstPass: boolean): boolean {
    if (event.vault === null) return true
    const position = processedPosition(this.book, event, event.vault, firstPass)
    if (position === null) return false
    if (knownOwner(event) === null) this.matchedByAmount += 1
    settleProcessing(this.book, this.ledger, event, position)
    return true
  }

  private applyToState(event: LoggedEvent): void {
    const { book, ledger } = this
    const vault = event.vault
    const day = vault === null ? null : ledger.vault(vault)
    if (day !== null) day.events += 1
    const user = textField(event, "user")
    switch (event.name) {
      case "DepositRequested": {
        if (day !== null) {
          day.depositsRequested += bigField(event, "grossAmount") ?? 0n
          day.depositFees += bigField(event, "feeAmount") ?? 0n
        }
        if (vault !== null && user !== null) book.requestDeposit(book.position(vault, user), event.slot, bigField(event, "netAmount") ?? 0n)
        return
      }
      case "RefundedDeposit": {
        if (vault === null || user === null) return
        const position = book.position(vault, user)
        book.setPendingDeposit(position, 0n)
        // A refund returns a deposit that was never allocated: the counter does not move (sandbox model).
        ledger.counter(book.pairOf(position), event, "referredNetDepositsAfter", 0n)
        return
      }
      case "Allocated": {
        if (vault === null || day === null) return
        day.closingSharePrice = bigField(event, "sharePrice") ?? day.closingSharePrice
        const total = bigField(event, "totalShares")
        const userBefore = bigField(event, "userSharesBefore")
        const userAfter = bigField(event, "userSharesAfter")
        const minted = userBefore === null || userAfter === null ? null : userAfter - userBefore
        ledger.totalShares(vault, day, total === null || minted === null ? null : total - minted, total)
        if (!this.applyProcessing(event, true)) this.deferred.push(event)
        return
      }
      case "WithdrawalRequested": {
        if (vault === null || user === null) return
        book.requestWithdrawal(book.position(vault, user), event.slot, bigField(event, "amount") ?? 0n)
        return
      }
      case "Redeemed": {
        if (vault === null || day === null) return
        day.withdrawalsPaid += bigField(event, "grossAmount") ?? 0n
        day.withdrawalFees += bigField(event, "feeAmount") ?? 0n
        day.closingSharePrice = bigField(event, "sharePrice") ?? day.closingSharePrice
        ledger.totalShares(vault, day, bigField(event, "totalSharesBefore"), bigField(event, "totalSharesAfter"))
        if (!this.applyProcessing(event, true)) this.deferred.push(event)
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
          book.report(book.position(vault, user), event.slot, after === null || fees === null ? null : after + fees, after)
        }
        return
      }
      case "UserReferrerSet": {
        const referrer = textField(event, "referrer")
        if (vault !== null && user !== null && referrer !== null) book.bind(book.position(vault, user), referrer)
        return
      }
      case "UserBundleAccountClosed": {
        if (vault === null || user === null) return
        const position = book.position(vault, user)
        ledger.counter(book.pairOf(position), event, "referredNetDepositsAfter", null)
        book.close(position)
        return
      }
      case "ReferrerRegistered": {
        const referrer = textField(event, "referrer")
        if (vault !== null && referrer !== null) ledger.pair(referrer, vault)
        return
      }
      case "ReferralFeesAccrued": {
        const referrer = textField(event, "referrer")
        if (vault === null || referrer === null) return
        const pair = ledger.pair(referrer, vault)
        pair.mfeeShares += bigField(event, "referrerMfeeShares") ?? 0n
        pair.pfeeShares += bigField(event, "referrerPfeeShares") ?? 0n
        return
      }
      case "BundleSwitchCompleted":
      case "BundleSwitchFallbackToWallet": {
        // The source side: the redeemed shares leave the source vault's position (its counter moves).
        const source = textField(event, "sourceBundle")
        if (source === null || user === null) return
        const position = book.position(source, user)
        book.setPendingWithdrawals(position, [])
        book.report(position, event.slot, bigField(event, "userSharesBefore"), bigField(event, "userSharesAfter"))
        const pair = book.pairOf(position)
        const gross = bigField(event, "grossRedemption") ?? 0n
        if (pair !== null) pair.flowsOut += gross
        ledger.counter(pair, event, "sourceReferredNetDepositsAfter", -gross)
        return
      }
      case "OracleUpdated": {
        if (vault === null || day === null) return
        const total = bigField(event, "totalShares")
        ledger.totalShares(vault, day, total, total)
        return
      }
      case "ManagerWithdrawal":
      case "ManagerWithdrawalWithSplit": {
        if (vault === null || day === null) return
        const after = bigField(event, "totalSharesAfter")
        const redeemed = ["managerShares", "managerPfeeShares", "managerMfeeShares", "partnerPfeeShares", "partnerMfeeShares"]
          .reduce((sum, field) => sum + (bigField(event, field) ?? 0n), 0n)
        ledger.totalShares(vault, day, after === null ? null : after + redeemed, after)
        return
      }
      case "ReferrerWithdrawalProcessed": {
        if (vault !== null && day !== null) ledger.burnShares(vault, day, bigField(event, "sharesRedeemed"))
        return
      }
      case "DustSharesBurned": {
        if (vault !== null && day !== null) ledger.burnShares(vault, day, bigField(event, "amount"))
        return
      }
      default:
        return
    }
  }
}
