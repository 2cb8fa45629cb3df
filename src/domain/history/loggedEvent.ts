/** A program event as the event log stores it (`program_event`): `data` is the decoded JSON form. */
export interface LoggedEvent {
  readonly slot: number
  readonly signature: string
  readonly eventIndex: number
  /** Unix seconds. */
  readonly blockTime: number
  readonly name: string
  /** The event's `bundle_account_key`, when it has one. */
  readonly vault: string | null
  /**
   * The stored `wallet` column: for `Allocated`/`Redeemed` the position owner when the log knows it,
   * but older rows hold other things (see `knownOwner`). Absent: not loaded.
   */
  readonly wallet?: string | null
  /** camelCase fields; integers as base-10 strings, `Option` None as null. */
  readonly data: Readonly<Record<string, unknown>>
}

/** An integer field (a base-10 string in the log; a number for small ones); null when absent or None. */
export const bigField = (event: LoggedEvent, field: string): bigint | null => {
  const value = event.data[field]
  if (typeof value === "string" && /^-?\d+$/.test(value)) return BigInt(value)
  if (typeof value === "number" && Number.isSafeInteger(value)) return BigInt(value)
  return null
}

export const textField = (event: LoggedEvent, field: string): string | null => {
  const value = event.data[field]
  return typeof value === "string" ? value : null
}

/** Whether the field is present and None (JSON null), as opposed to missing. */
export const isNoneField = (event: LoggedEvent, field: string): boolean => field in event.data && event.data[field] === null
