import { addUtcDays, utcDayOf } from "../history/utcDay.ts"
import { bigOf, textOf } from "./eventFields.ts"
import type { UserEvent } from "./userEvent.ts"

/**
 * A position as its events leave it: `shares` as the UserBundleAccount holds them, and the shares
 * locked in a withdrawal (or switch) request, which stay the user's, and exposed to the share price,
 * until processed.
 */
export interface Holding {
  readonly shares: bigint
  readonly pendingShares: bigint
}

/** A day's capital flows at the position, and fees. */
export interface DayFlows {
  /** Net deposits credited into shares (`Allocated.net_amount`, after the deposit fee; a switch's net amount arrives so too). */
  readonly deposited: bigint
  /** Withdrawals redeemed out of shares (`Redeemed.gross_amount`, before the withdrawal fee), switches out. */
  readonly withdrawn: bigint
  readonly depositFees: bigint
  readonly withdrawalFees: bigint
  /** Management and performance fees charged in shares, at their value (`ChargedFeesToUser.total_fee_value`). */
  readonly feesCharged: bigint
}

export const NO_HOLDING: Holding = { shares: 0n, pendingShares: 0n }
const NO_FLOWS: DayFlows = { deposited: 0n, withdrawn: 0n, depositFees: 0n, withdrawalFees: 0n, feesCharged: 0n }

const orZero = (value: bigint | null) => value ?? 0n

/** The holding and flows after `event` of the position in `vault`. */
export const applyEvent = (vault: string, holding: Holding, flows: DayFlows, event: UserEvent): { holding: Holding; flows: DayFlows } => {
  const d = event.data
  const after = bigOf(d, "userSharesAfter")
  switch (event.name) {
    case "DepositRequested":
      return { holding, flows: { ...flows, depositFees: flows.depositFees + orZero(bigOf(d, "feeAmount")) } }
    case "RefundedDeposit":
      return { holding, flows }
    case "Allocated":
      return {
        holding: { ...holding, shares: after ?? holding.shares },
        flows: { ...flows, deposited: flows.deposited + orZero(bigOf(d, "netAmount")) }
      }
    case "WithdrawalRequested": {
      const shares = orZero(bigOf(d, "amount"))
      return { holding: { shares: holding.shares - shares, pendingShares: holding.pendingShares + shares }, flows }
    }
    case "Redeemed":
      return {
        holding: { shares: after ?? holding.shares, pendingShares: 0n },
        flows: {
          ...flows,
          withdrawn: flows.withdrawn + orZero(bigOf(d, "grossAmount")),
          withdrawalFees: flows.withdrawalFees + orZero(bigOf(d, "feeAmount"))
        }
      }
    case "ChargedFeesToUser":
      return {
        holding: { ...holding, shares: after ?? holding.shares },
        flows: { ...flows, feesCharged: flows.feesCharged + orZero(bigOf(d, "totalFeeValue")) }
      }
    // Switches: the source locks the shares at the request, like a withdrawal, and redeems them at
    // completion (gross out, fee A). The target receives the net amount as a pending deposit (the
    // IDL gives process_switch the target's pending deposit account, not its asset account): it
    // flows in when the target's process_deposit allocates it (`Allocated`, like any deposit), so
    // the completion only records fee B there; counting it at completion too would count it twice.
    case "BundleSwitchRequested": {
      if (textOf(d, "sourceBundle") !== vault) return { holding, flows }
      const shares = orZero(bigOf(d, "sharesAmount"))
      return { holding: { shares: holding.shares - shares, pendingShares: holding.pendingShares + shares }, flows }
    }
    case "BundleSwitchCompleted":
    case "BundleSwitchFallbackToWallet": {
      if (textOf(d, "targetBundle") === vault && event.name === "BundleSwitchCompleted") {
        return {
          holding,
          flows: { ...flows, depositFees: flows.depositFees + orZero(bigOf(d, "depositFeeB")) }
        }
      }
      if (textOf(d, "sourceBundle") !== vault) return { holding, flows }
      const redeemed = orZero(bigOf(d, "sharesRedeemed"))
      const fromPending = holding.pendingShares >= redeemed
      return {
        holding: {
          shares: after ?? (fromPending ? holding.shares : holding.shares - redeemed),
          pendingShares: fromPending ? holding.pendingShares - redeemed : 0n
        },
        flows: {
          ...flows,
          withdrawn: flows.withdrawn + orZero(bigOf(d, "grossRedemption")),
          withdrawalFees: flows.withdrawalFees + orZero(bigOf(d, "withdrawalFeeA"))
        }
      }
    }
  }
}

/**
 * The holding after `recent` (the position's newest events before some time, newest first). The
 * account's shares come from the newest event that reports them (`user_shares_after`), less the
 * shares later requests locked; the locked shares from the newest request or processing.
 */
export const holdingAfter = (vault: string, recent: ReadonlyArray<UserEvent>): Holding => {
  let holding = NO_HOLDING
  for (let i = recent.length - 1; i >= 0; i--) holding = applyEvent(vault, holding, NO_FLOWS, recent[i]!).holding
  return holding
}

/** Value of a holding at a closing share price (scaled by the asset's precision); null without a price unless it holds nothing. */
export const holdingValue = (holding: Holding, sharePrice: bigint | null, precision: bigint): bigint | null => {
  const shares = holding.shares + holding.pendingShares
  if (shares === 0n) return 0n
  return sharePrice === null ? null : (shares * sharePrice) / precision
}

export interface PositionDay {
  readonly date: string
  readonly holding: Holding
  readonly sharePrice: bigint | null
  readonly value: bigint | null
  readonly flows: DayFlows
  /** value − previous day's value − (deposited − withdrawn); null when either value is unknown. */
  readonly earnings: bigint | null
}

/**
 * The position's days `from`..`to` (inclusive, oldest first): `opening` is its holding at `from`'s
 * 00:00 UTC, `events` its events of those days (oldest first), `priceOf` the vault's closing share
 * price of a day (also asked for the day before `from`).
 */
export const positionDays = (input: {
  readonly vault: string
  readonly from: string
  readonly to: string
  readonly opening: Holding
  readonly events: ReadonlyArray<UserEvent>
  readonly priceOf: (date: string) => bigint | null
  readonly precision: bigint
}): Array<PositionDay> => {
  const days: Array<PositionDay> = []
  let holding = input.opening
  let previousValue = holdingValue(holding, input.priceOf(addUtcDays(input.from, -1)), input.precision)
  let next = 0
  for (let date = input.from; date <= input.to; date = addUtcDays(date, 1)) {
    let flows = NO_FLOWS
    while (next < input.events.length) {
      const event = input.events[next]!
      if (event.blockTime !== null && utcDayOf(event.blockTime) > date) break
      ;({ holding, flows } = applyEvent(input.vault, holding, flows, event))
      next++
    }
    const sharePrice = input.priceOf(date)
    const value = holdingValue(holding, sharePrice, input.precision)
    const earnings = value === null || previousValue === null ? null : value - previousValue - (flows.deposited - flows.withdrawn)
    days.push({ date, holding, sharePrice, value, flows, earnings })
    previousValue = value
  }
  return days
}

/** The window's totals: start value (before `from`), end value (at `to`'s close), flows, earnings. */
export const windowEarnings = (days: ReadonlyArray<PositionDay>, startValue: bigint | null) => {
  const last = days[days.length - 1]
  const flows = days.reduce<DayFlows>((sum, day) => ({
    deposited: sum.deposited + day.flows.deposited,
    withdrawn: sum.withdrawn + day.flows.withdrawn,
    depositFees: sum.depositFees + day.flows.depositFees,
    withdrawalFees: sum.withdrawalFees + day.flows.withdrawalFees,
    feesCharged: sum.feesCharged + day.flows.feesCharged
  }), NO_FLOWS)
  const endValue = last === undefined ? startValue : last.value
  return {
    startValue,
    endValue,
    flows,
    earnings: endValue === null || startValue === null ? null : endValue - startValue - (flows.deposited - flows.withdrawn)
  }
}
