import { bigField, type LoggedEvent, textField } from "./loggedEvent.ts"
import type { Position, PositionBook } from "./positionBook.ts"

/** The keeper-processing events that name no user in their data. */
const PROCESSING: ReadonlySet<string> = new Set(["Allocated", "Redeemed"])

/**
 * The position owner the event log stored for an `Allocated`/`Redeemed` (`program_event.wallet`,
 * read from the emitting top-level `process_deposit`/`process_withdrawal`), or null when unknown.
 * The column is not always the owner: rows written before migration 0011, and rows whose
 * instruction did not tell (say a CPI), hold the event's `from` token account (or null), so a
 * wallet equal to `from` is not trusted.
 */
export const knownOwner = (event: LoggedEvent): string | null => {
  const wallet = event.wallet ?? null
  if (wallet === null || !PROCESSING.has(event.name)) return null
  return wallet === textField(event, "from") ? null : wallet
}

/** The net amount an `Allocated` moved into its position. */
export const allocatedNet = (event: LoggedEvent): bigint => bigField(event, "netAmount") ?? bigField(event, "amount") ?? 0n

/** The shares a `Redeemed` took out of its position's pending withdrawals (null when the event does not say). */
export const redeemedShares = (event: LoggedEvent): bigint | null => {
  const before = bigField(event, "userSharesBefore")
  const after = bigField(event, "userSharesAfter")
  return before !== null && after !== null ? before - after : null
}

/** Keeps the candidates that pass `keep`, unless none does (then the test cannot decide: keep all). */
const narrow = <A>(candidates: ReadonlyArray<A>, keep: (candidate: A) => boolean): ReadonlyArray<A> => {
  if (candidates.length <= 1) return candidates
  const kept = candidates.filter(keep)
  return kept.length > 0 ? kept : candidates
}

/** Whether `net` is the position's whole pending deposit, or what was pending before the slot's requests. */
const pendsDeposit = (position: Position, slot: number, net: bigint): boolean =>
  position.pendingDeposit === net || (position.depositSlot === slot && position.pendingBeforeSlot === net)

/**
 * Among amount-matched candidates: those whose last known shares fit the event (`sharesFit`), then
 * those whose builder counter moved by `counterDelta` gives the counter the event reports (no
 * builder when it reports none), then the first in line.
 */
const tieBreak = (
  book: PositionBook,
  candidates: ReadonlyArray<Position>,
  sharesFit: (position: Position) => boolean,
  counterAfter: bigint | null,
  counterDelta: bigint
): Position | null => {
  const fitting = narrow(candidates, sharesFit)
  const counted = narrow(fitting, (position) => {
    const pair = book.pairOf(position)
    return counterAfter === null ? pair === null : pair !== null && pair.referredNetDeposits + counterDelta === counterAfter
  })
  return counted[0] ?? null
}

const byAmount = (book: PositionBook, event: LoggedEvent, vault: string, checkShares: boolean): Position | null => {
  const counterAfter = bigField(event, "referredNetDepositsAfter")
  const before = bigField(event, "userSharesBefore")
  if (event.name === "Allocated") {
    const net = allocatedNet(event)
    const matching = new Set(book.withPendingDeposit(vault, net))
    for (const candidate of book.depositorsOfSlot) {
      if (candidate.vault === vault && candidate.depositSlot === event.slot && candidate.pendingBeforeSlot === net) matching.add(candidate)
    }
    return tieBreak(book, [...matching], (candidate) => !checkShares || candidate.shares === before, counterAfter, net)
  }
  const after = bigField(event, "userSharesAfter")
  return tieBreak(
    book,
    [...book.withPendingWithdrawal(vault, redeemedShares(event))],
    (candidate) => !checkShares || candidate.shares === after || candidate.shares === before,
    counterAfter,
    -(bigField(event, "grossAmount") ?? 0n)
  )
}

/**
 * The position an `Allocated`/`Redeemed` of `vault` concerns, or null for "not (yet) known".
 *
 * With a known owner it is that owner's position. On the first pass (`firstPass`, the event as
 * listed) it is taken only when the position's pending amounts already account for the event;
 * otherwise the event waits for the end of its slot, since a request of the same slot may be
 * listed after the processing that followed it. At the slot's end the owner's position is taken
 * whatever its pending amounts say.
 *
 * Without one (older rows): the position is found among the vault's positions with a pending
 * deposit equal to `net_amount` (processing allocates the whole pending deposit; or, the slot's
 * order being unknown, with that amount pending before the slot's requests) or a pending
 * withdrawal of `user_shares_before - user_shares_after` shares; ties are broken by the user's
 * last known shares (first pass only: the slot's later events may have moved them since), then by
 * the builder counter the event reports, then by order of the requests.
 */
export const processedPosition = (book: PositionBook, event: LoggedEvent, vault: string, firstPass: boolean): Position | null => {
  const owner = knownOwner(event)
  if (owner === null) return byAmount(book, event, vault, firstPass)
  const position = book.position(vault, owner)
  if (!firstPass) return position
  if (event.name === "Allocated") return pendsDeposit(position, event.slot, allocatedNet(event)) ? position : null
  const redeemed = redeemedShares(event)
  return redeemed !== null && position.pendingWithdrawals.includes(redeemed) ? position : null
}
