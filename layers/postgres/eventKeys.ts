import type { NtEvent } from "../../src/ntbundle/events.ts"

const addressField = (data: object, field: string): string | null => {
  const value: unknown = (data as Readonly<Record<string, unknown>>)[field]
  return typeof value === "string" ? value : null
}

/** The vault an event concerns: its `bundle_account_key`, when it has one. */
export const eventVault = (event: NtEvent): string | null => addressField(event.data, "bundleAccountKey")

/** The event's main wallet: the `user`, else the `referrer`, else the `from` account. */
export const eventWallet = (event: NtEvent): string | null =>
  addressField(event.data, "user") ?? addressField(event.data, "referrer") ?? addressField(event.data, "from")
