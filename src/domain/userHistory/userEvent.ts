/** The event names of a wallet's activity (facts §10.8: deposits, withdrawals, fees, switches). */
export const USER_ACTIVITY_EVENTS = [
  "DepositRequested",
  "Allocated",
  "RefundedDeposit",
  "WithdrawalRequested",
  "Redeemed",
  "ChargedFeesToUser",
  "BundleSwitchRequested",
  "BundleSwitchCompleted",
  "BundleSwitchFallbackToWallet"
] as const
export type UserActivityEventName = typeof USER_ACTIVITY_EVENTS[number]

/**
 * Where an event stands in the log: slot, then signature, then its index in the transaction.
 * The log orders one slot's transactions by signature (it keeps no in-block index), so within a
 * slot this is not necessarily the order the block executed them in.
 */
export interface LogKey {
  readonly slot: number
  readonly signature: string
  readonly eventIndex: number
}

/** One user event as the event log holds it. */
export interface UserEvent extends LogKey {
  readonly name: UserActivityEventName
  /** Block time of the transaction, null when the node gave none. */
  readonly blockTime: number | null
  /** `bundle_account_key`; null for switches (see `sourceBundle`/`targetBundle` in `data`). */
  readonly vault: string | null
  /** The decoded event (camelCase fields, 64/128-bit integers as decimal strings). */
  readonly data: Readonly<Record<string, unknown>>
}
