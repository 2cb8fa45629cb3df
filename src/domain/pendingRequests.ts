import type { BundleTempData, UserBundleAccount } from "../ntbundle/accounts.ts"
import { bundleCooldownCurve, cooldownSeconds, type CooldownCurve } from "../ntbundle/math.ts"

/**
 * A position's deposit and withdrawal requests and where each stands, from the chain: the
 * UserBundleAccount (what is pending now), the vault's BundleTempData (whether this cycle's
 * deposits are netted) and the position's request events (gross amounts, fees, times, outcomes).
 *
 * Deposit: requested -> netted (the keeper moved the cycle's pending tokens into the vault) ->
 * processed (shares minted, `Allocated`) or refunded (`RefundedDeposit`). Withdrawal: requested ->
 * processed (`Redeemed`); the program does not net withdrawals. A settled request stays listed for
 * `SETTLED_VISIBLE_SECONDS` of chain time, unless a newer request replaces it.
 */
export type RequestStage = "requested" | "netted" | "processed" | "refunded"

export interface RequestAmounts {
  readonly gross?: bigint
  readonly fee?: bigint
  readonly net?: bigint
  readonly shares?: bigint
  readonly estimatedValue?: bigint
}

export interface RequestState {
  readonly stage: RequestStage
  /** Unix seconds of the (first) request. */
  readonly requestedAt: number
  /** Unix seconds of processing or refund; null while open. */
  readonly settledAt: number | null
  readonly cooldownEnd: number | null
  readonly etaProcessAt: number | null
  readonly amounts: RequestAmounts
}

/** One request event of the position (newest first in the lists below). */
export interface LoggedRequestEvent {
  readonly name: string
  readonly slot: number
  readonly blockTime: number | null
  readonly data: Readonly<Record<string, unknown>>
}

export const SETTLED_VISIBLE_SECONDS = 86_400

const big = (data: Readonly<Record<string, unknown>>, field: string): bigint | null => {
  const value = data[field]
  return typeof value === "string" && /^-?\d+$/.test(value) ? BigInt(value) : typeof value === "number" && Number.isInteger(value) ? BigInt(value) : null
}

/** The program's clock in the event, else the transaction's block time. */
const timeOf = (event: LoggedRequestEvent): number | null => {
  const stamp = big(event.data, "timestamp")
  return stamp !== null && stamp > 0n ? Number(stamp) : event.blockTime
}

const positive = (value: bigint): number | null => (value > 0n ? Number(value) : null)

/**
 * The requests of one kind since the previous settlement: `events` newest first, settlement names
 * end a group. Returns the newest settlement (if any) and the requests after it (open) and the
 * requests that settlement closed.
 */
const groups = (events: ReadonlyArray<LoggedRequestEvent>, request: string, settlements: ReadonlyArray<string>) => {
  const open: Array<LoggedRequestEvent> = []
  const closed: Array<LoggedRequestEvent> = []
  let settlement: LoggedRequestEvent | null = null
  for (const event of events) {
    if (settlements.includes(event.name)) {
      if (settlement !== null) break
      settlement = event
    } else if (event.name === request) {
      ;(settlement === null ? open : closed).push(event)
    }
  }
  return { open, closed, settlement }
}

/** Gross, fee and net of a run of deposit requests, when their nets add up to the chain's `net`. */
const depositTotals = (requests: ReadonlyArray<LoggedRequestEvent>, net: bigint): RequestAmounts => {
  let gross = 0n
  let fee = 0n
  let sum = 0n
  for (const event of requests) {
    gross += big(event.data, "grossAmount") ?? 0n
    fee += big(event.data, "feeAmount") ?? 0n
    sum += big(event.data, "netAmount") ?? 0n
  }
  return requests.length > 0 && sum === net ? { gross, fee, net } : { net }
}

const oldestTime = (requests: ReadonlyArray<LoggedRequestEvent>): number | null =>
  requests.length === 0 ? null : timeOf(requests[requests.length - 1]!)

export const depositRequest = (
  account: UserBundleAccount,
  temp: BundleTempData | null,
  events: ReadonlyArray<LoggedRequestEvent>,
  now: number
): RequestState | null => {
  const { closed, open, settlement } = groups(events, "DepositRequested", ["Allocated", "RefundedDeposit"])
  if (account.pendingDeposit > 0n) {
    // Requests are refused once the cycle is netted (NettingAlreadyDone), so a deposit pending while
    // netting is done was part of it.
    const netted = temp !== null && temp.isNettingDone && temp.lastNettingTimestamp >= account.lastDepositTimestamp
    return {
      stage: netted ? "netted" : "requested",
      requestedAt: oldestTime(open) ?? Number(account.lastDepositTimestamp),
      settledAt: null,
      cooldownEnd: null,
      // The keeper's deposit cadence is not on chain.
      etaProcessAt: null,
      amounts: depositTotals(open, account.pendingDeposit)
    }
  }
  if (settlement === null) return null
  const settledAt = timeOf(settlement)
  if (settledAt === null || now - settledAt > SETTLED_VISIBLE_SECONDS) return null
  // The log orders the transactions of one slot by signature, not by their order in the block: with
  // nothing pending on chain, a request of the settlement's own slot that sorts after it was settled by it.
  const settled = [...open.filter((event) => event.slot === settlement.slot), ...closed]
  const refunded = settlement.name === "RefundedDeposit"
  const net = big(settlement.data, refunded ? "amount" : "netAmount") ?? 0n
  const minted = refunded ? null : (big(settlement.data, "userSharesAfter") ?? 0n) - (big(settlement.data, "userSharesBefore") ?? 0n)
  return {
    stage: refunded ? "refunded" : "processed",
    // The account's last deposit time belongs to the settled requests when the log lacks them.
    requestedAt: oldestTime(settled) ?? Number(account.lastDepositTimestamp),
    settledAt,
    cooldownEnd: null,
    etaProcessAt: null,
    amounts: { ...depositTotals(settled, net), ...(minted === null ? {} : { shares: minted }) }
  }
}

export interface WithdrawalContext {
  readonly curve: CooldownCurve
  readonly totalShares: bigint
}

export const withdrawalContext = (bundle: Parameters<typeof bundleCooldownCurve>[0] & { readonly totalShares: bigint }): WithdrawalContext => ({
  curve: bundleCooldownCurve(bundle),
  totalShares: bundle.totalShares
})

/**
 * The position's withdrawal. `requestedAt` of an open request the log does not hold (stored history
 * starts later) is estimated as its availability time minus the cooldown the vault's curve gives now.
 */
export const withdrawalRequest = (
  account: UserBundleAccount,
  vault: WithdrawalContext,
  events: ReadonlyArray<LoggedRequestEvent>,
  now: number
): RequestState | null => {
  const { closed, open, settlement } = groups(events, "WithdrawalRequested", ["Redeemed"])
  if (account.pendingShares > 0n) {
    const request = open.find((event) => big(event.data, "amount") === account.pendingShares)
    const cooldownEnd = positive(account.withdrawalAvailableTimestamp)
    const requestedAt = (request === undefined ? null : timeOf(request)) ??
      Number(account.withdrawalAvailableTimestamp - cooldownSeconds(vault.curve, account.pendingShares, vault.totalShares))
    return {
      stage: "requested",
      requestedAt,
      settledAt: null,
      cooldownEnd,
      // The program's own earliest processing time: the cooldown end, not before the redemption cycle's unlock.
      etaProcessAt: cooldownEnd,
      amounts: { shares: account.pendingShares, estimatedValue: account.estimatedPendingWithdrawalValue }
    }
  }
  if (settlement === null || closed.length === 0) return null
  const settledAt = timeOf(settlement)
  const requestedAt = timeOf(closed[0]!)
  if (settledAt === null || requestedAt === null || now - settledAt > SETTLED_VISIBLE_SECONDS) return null
  const data = settlement.data
  const amounts: RequestAmounts = {
    gross: big(data, "grossAmount") ?? 0n,
    fee: big(data, "feeAmount") ?? 0n,
    net: big(data, "netAmount") ?? 0n,
    shares: big(closed[0]!.data, "amount") ?? 0n
  }
  return { stage: "processed", requestedAt, settledAt, cooldownEnd: null, etaProcessAt: null, amounts }
}

/** True when an open withdrawal's request event is missing from the log: its time is then an estimate. */
export const withdrawalRequestLogged = (account: UserBundleAccount, events: ReadonlyArray<LoggedRequestEvent>): boolean =>
  account.pendingShares === 0n ||
  groups(events, "WithdrawalRequested", ["Redeemed"]).open.some((event) => big(event.data, "amount") === account.pendingShares)
