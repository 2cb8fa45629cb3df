import type { NtEvent } from "../../src/ntbundle/events.ts"

const addressField = (data: object, field: string): string | null => {
  const value: unknown = (data as Readonly<Record<string, unknown>>)[field]
  return typeof value === "string" ? value : null
}

/** The vault an event concerns: its `bundle_account_key`, when it has one. */
export const eventVault = (event: NtEvent): string | null => addressField(event.data, "bundleAccountKey")

/** Keeper-processing events that name token accounts, not the user: their wallet comes from the instruction. */
const OWNER_FROM_INSTRUCTION: ReadonlySet<string> = new Set(["Allocated", "Redeemed"])

/**
 * The event's main wallet: the `user`, else the `referrer`, else the `from` account. For
 * `Allocated` and `Redeemed` (whose `from`/`to` are token accounts) it is the position owner taken
 * from the emitting top-level `process_deposit` / `process_withdrawal` instruction (`user`, see
 * ProgramDataLine), else null: a token account there would pass for an owner.
 */
export const eventWallet = (event: NtEvent, instructionUser?: string): string | null =>
  OWNER_FROM_INSTRUCTION.has(event.name)
    ? instructionUser ?? null
    : addressField(event.data, "user") ?? addressField(event.data, "referrer") ?? addressField(event.data, "from")
