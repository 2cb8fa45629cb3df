import type { ProjectionState } from "./state.ts"

/**
 * Accounts a transaction could have written but whose notification may have been lost. Per slot it
 * counts, for each account, the transactions that could write it and the notifications received.
 * Once the slot is complete, an account with fewer notifications than writers (a lost update, even
 * when another update of the same slot arrived) and no newer version is fetched again. A writable
 * account left unchanged costs one needless fetch; accounts found to belong to other programs
 * (wallets, token accounts) are remembered so they are not fetched again.
 */
export class RepairTracker {
  readonly #writers = new Map<number, Map<string, number>>()
  readonly #received = new Map<number, Map<string, number>>()
  readonly #foreign = new Set<string>()

  constructor(private readonly foreignCapacity = 200_000) {}

  /** Notes the writable accounts of a successful transaction at `slot`. */
  note(slot: number, writable: ReadonlyArray<string>): void {
    let counts: Map<string, number> | undefined
    for (const address of writable) {
      if (this.#foreign.has(address)) continue
      counts ??= countsAt(this.#writers, slot)
      counts.set(address, (counts.get(address) ?? 0) + 1)
    }
  }

  /** Notes an account notification (not a snapshot or a repair) received for `slot`. */
  noteNotification(address: string, slot: number): void {
    const counts = countsAt(this.#received, slot)
    counts.set(address, (counts.get(address) ?? 0) + 1)
  }

  /** The accounts to fetch now that every slot up to `completedSlot` is delivered, with their minimum slot. */
  due(completedSlot: number, state: ProjectionState): Array<{ readonly address: string; readonly minSlot: number }> {
    const stale: Array<{ address: string; minSlot: number }> = []
    for (const [slot, writers] of this.#writers) {
      if (slot > completedSlot) continue
      this.#writers.delete(slot)
      const received = this.#received.get(slot)
      for (const [address, count] of writers) {
        const stored = state.accounts.get(address)
        const newer = stored !== undefined && stored.slot > slot
        if (!newer && (received?.get(address) ?? 0) < count) stale.push({ address, minSlot: slot })
      }
    }
    for (const slot of this.#received.keys()) if (slot <= completedSlot) this.#received.delete(slot)
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
    for (const slot of this.#writers.keys()) if (oldest === null || slot < oldest) oldest = slot
    return oldest
  }
}

const countsAt = (bySlot: Map<number, Map<string, number>>, slot: number): Map<string, number> => {
  let counts = bySlot.get(slot)
  if (counts === undefined) bySlot.set(slot, (counts = new Map()))
  return counts
}
