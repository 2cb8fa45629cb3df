/**
 * Accounts by address, plus an index by owner so that getProgramAccounts and the program
 * snapshot touch only the owner's accounts. Records are immutable: a write replaces the record,
 * so a reader (a streamed getProgramAccounts answer, a snapshot, a pending notification) can
 * keep references without copying and still see one consistent state.
 *
 * Memory: one small record object per account, the data bytes (which bulk writers may place as
 * views into one shared buffer), and two map entries. A zero-lamport account does not exist,
 * as on Solana: writing one removes the address.
 */
export interface AccountRecord {
  readonly owner: string
  readonly lamports: bigint
  /** Owned by the record: never mutated after the record is stored. */
  readonly data: Uint8Array
  readonly executable: boolean
  /** Slot of the last write. */
  readonly slot: number
}

export class AccountStore {
  private readonly byAddress = new Map<string, AccountRecord>()
  private readonly byOwner = new Map<string, Map<string, AccountRecord>>()

  get size(): number {
    return this.byAddress.size
  }

  get(address: string): AccountRecord | undefined {
    return this.byAddress.get(address)
  }

  /** Stores `record`, or removes the account when `record` is undefined or has zero lamports. */
  put(address: string, record: AccountRecord | undefined): void {
    const previous = this.byAddress.get(address)
    const removed = record === undefined || record.lamports === 0n
    if (previous !== undefined && (removed || previous.owner !== record.owner)) {
      const owned = this.byOwner.get(previous.owner)
      owned?.delete(address)
      if (owned !== undefined && owned.size === 0) this.byOwner.delete(previous.owner)
    }
    if (removed) {
      this.byAddress.delete(address)
      return
    }
    this.byAddress.set(address, record)
    let owned = this.byOwner.get(record.owner)
    if (owned === undefined) {
      owned = new Map()
      this.byOwner.set(record.owner, owned)
    }
    owned.set(address, record)
  }

  /** Live view of the accounts owned by `owner`; callers must not hold it across writes. */
  ownedBy(owner: string): ReadonlyMap<string, AccountRecord> {
    return this.byOwner.get(owner) ?? EMPTY
  }

  /** A frozen list of `owner`'s accounts at this instant (records are immutable). */
  snapshotOwnedBy(owner: string): Array<readonly [string, AccountRecord]> {
    return Array.from(this.ownedBy(owner))
  }
}

const EMPTY: ReadonlyMap<string, AccountRecord> = new Map()
