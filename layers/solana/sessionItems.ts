import type { AccountUpdated } from "../../services/ChainSource.ts"

/** What a connection session queues, in arrival order, for the ordered handler. */
export type SessionItem =
  | { readonly _tag: "Account"; readonly update: AccountUpdated }
  /** A program transaction to fetch (from a logs notification, or found missing by reconciliation). */
  | { readonly _tag: "Transaction"; readonly signature: string }
  | { readonly _tag: "Slot"; readonly slot: number }
  /** Every transaction up to `signature` (null: the program has none yet) has been queued before this marker. */
  | { readonly _tag: "Complete"; readonly signature: string | null; readonly slot: number }

/** Signatures already delivered, kept for the recent past only (older ones cannot reappear). */
export class RecentSignatures {
  readonly #set = new Set<string>()
  constructor(private readonly capacity: number) {}

  has(signature: string): boolean {
    return this.#set.has(signature)
  }

  add(signature: string): void {
    this.#set.add(signature)
    if (this.#set.size > this.capacity) {
      const oldest = this.#set.values().next().value
      if (oldest !== undefined) this.#set.delete(oldest)
    }
  }
}
