import { Either } from "effect"
import { decodePriceUpdateV2, PYTH_RECEIVER_PROGRAM_ID, type PriceUpdateV2 } from "../../pyth/priceUpdate.ts"
import type { AccountUpdate } from "./accountUpdate.ts"

/** A watched Pyth price account as the chain last showed it, decoded once when it arrives. */
export interface PriceAccount {
  readonly owner: string
  readonly slot: number
  readonly data: Uint8Array
  /** Null when the bytes are not a PriceUpdateV2 (never trusted for a price). */
  readonly update: PriceUpdateV2 | null
}

/** Whether an update belongs to the price accounts rather than to the program's accounts. */
export const isPriceAccountUpdate = (update: AccountUpdate, known: ReadonlyMap<string, PriceAccount>): boolean =>
  update.owner === PYTH_RECEIVER_PROGRAM_ID || known.has(update.address)

/**
 * Applies a price account update to `accounts` unless the stored version is newer. An empty account
 * or one no longer owned by the receiver is closed. Returns whether anything changed.
 */
export const applyPriceAccount = (accounts: Map<string, PriceAccount>, update: AccountUpdate): boolean => {
  const previous = accounts.get(update.address)
  if (previous !== undefined && update.slot < previous.slot) return false
  if (update.data.length === 0 || update.owner !== PYTH_RECEIVER_PROGRAM_ID) return accounts.delete(update.address)
  const decoded = decodePriceUpdateV2(update.data)
  accounts.set(update.address, { owner: update.owner, slot: update.slot, data: update.data, update: Either.getOrNull(decoded) })
  return true
}
