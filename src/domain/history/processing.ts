import type { DayLedger } from "./dayLedger.ts"
import { bigField, type LoggedEvent } from "./loggedEvent.ts"
import type { Position, PositionBook } from "./positionBook.ts"
import { allocatedNet, redeemedShares } from "./positionMatch.ts"

/** The position side of an `Allocated` attributed to `position`: its pending deposit is allocated. */
const settleAllocation = (book: PositionBook, ledger: DayLedger, event: LoggedEvent, position: Position): void => {
  const net = allocatedNet(event)
  book.setPendingDeposit(position, position.pendingDeposit > net ? position.pendingDeposit - net : 0n)
  position.pendingBeforeSlot = 0n
  book.report(position, event.slot, bigField(event, "userSharesBefore"), bigField(event, "userSharesAfter"))
  const pair = book.pairOf(position)
  if (pair !== null) pair.flowsIn += net
  ledger.counter(pair, event, "referredNetDepositsAfter", net)
}

/**
 * The position side of a `Redeemed` attributed to `position`: the pending withdrawal of the
 * redeemed shares is settled. Only an owner-attributed redemption can find none of that size
 * (shares redeemed otherwise than requested): the oldest pending one is the one processed.
 */
const settleRedemption = (book: PositionBook, ledger: DayLedger, event: LoggedEvent, position: Position): void => {
  const gross = bigField(event, "grossAmount") ?? 0n
  const redeemed = redeemedShares(event)
  const left = [...position.pendingWithdrawals]
  const at = redeemed === null ? -1 : left.indexOf(redeemed)
  if (at >= 0) left.splice(at, 1)
  else left.shift()
  book.setPendingWithdrawals(position, left)
  // Redeeming moves no shares of the position itself (they left it at request): before = after.
  const after = bigField(event, "userSharesAfter")
  book.report(position, event.slot, after, after)
  const pair = book.pairOf(position)
  if (pair !== null) pair.flowsOut += gross
  ledger.counter(pair, event, "referredNetDepositsAfter", -gross)
}

/** The position side of an `Allocated` or `Redeemed` once its position is known. */
export const settleProcessing = (book: PositionBook, ledger: DayLedger, event: LoggedEvent, position: Position): void =>
  event.name === "Allocated" ? settleAllocation(book, ledger, event, position) : settleRedemption(book, ledger, event, position)
