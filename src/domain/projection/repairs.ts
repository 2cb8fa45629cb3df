import type { ProjectionState } from "./state.ts"

/**
 * Accounts a transaction could have written but whose notification may have been lost. Once the
 * transaction's slot is complete, an account whose stored version is older than the transaction
 * (or that is missing) must be fetched again. Accounts found to belong to other programs (wallets,
 * token accounts) are remembered so they are fetched once, not on every transaction.
 */
export class RepairTracker {
  readonly #pending = new Map<number, Set<string>>()
  readonly #foreign = new Set<string>()

  constructor(private readonly foreignCapacity = 200_000) {}

  /** Notes the writable accounts of a successful transaction at `slot`. */
  note(slot: number, writable: ReadonlyArray<string>): void {
    let set = this.#pending.get(slot)
    for (const address of writable) {
      if (this.#foreign.has(address)) continue
      if (set === undefined) this.#pending.set(slot, (set = new Set()))
      set.add(address)
    }
  }

  /** The accounts to fetch now that every slot up to `completedSlot` is delivered, with their minimum slot. */
  due(completedSlot: number, state: ProjectionState): Array<{ readonly address: string; readonly minSlot: number }> {
    const stale: Array<{ address: string; minSlot: number }> = []
    for (const [slot, addresses] of this.#pending) {
      if (slot > completedSlot) continue
      this.#pending.delete(slot)
      for (const address of addresses) {
        const stored = state.accounts.get(address)
        if (stored === undefined || stored.slot < slot) stale.push({ address, minSlot: slot })
      }
    }
    return stale
  }

  markForeign(address: string): void {
    this.#foreign.add(address)
    if (this.#foreign.size > this.foreignCapacity) {
      const oldest = this.#foreign.values().next().value
      if (oldest !== undefined) this.#foreign.delete(oldest)
    }
  }

  /** The oldest slot with a repair still to check; a checkpoint must not claim anything at or past it. */
  oldestPendingSlot(): number | null {
    let oldest: number | null = null
    for (const slot of this.#pending.keys()) if (oldest === null || slot < oldest) oldest = slot
    return oldest
  }

  clear(): void {
    this.#pending.clear()
  }
}
