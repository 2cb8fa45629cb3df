import type { AccountRecord } from "../ledger/accountStore.ts"
import type { AccountState } from "../ledger/ledger.ts"
import { SYSTEM_PROGRAM_ID } from "../programs/ids.ts"

interface OverlayEntry {
  owner: string
  lamports: bigint
  data: Uint8Array
  executable: boolean
  /** True once `data` is this transaction's private copy (safe to edit in place). */
  dataIsPrivate: boolean
}

const EMPTY_ACCOUNT: Readonly<AccountState> = { owner: SYSTEM_PROGRAM_ID, lamports: 0n, data: new Uint8Array(0), executable: false }

/**
 * Copy-on-write view of the ledger for one transaction: reads fall through to the ledger until
 * an account is written; data is copied on its first in-place edit. Discarding the overlay undoes
 * everything, which is how a failed transaction leaves no trace; `changes()` lists what to commit.
 */
export class AccountOverlay {
  private readonly entries = new Map<string, OverlayEntry>()

  constructor(private readonly base: (address: string) => AccountRecord | undefined) {}

  read(address: string): Readonly<AccountState> {
    return this.entries.get(address) ?? this.readBase(address)
  }

  /** The account as the ledger holds it, ignoring this transaction's writes. */
  readBase(address: string): Readonly<AccountState> {
    return this.base(address) ?? EMPTY_ACCOUNT
  }

  exists(address: string): boolean {
    return this.read(address).lamports > 0n
  }

  setLamports(address: string, lamports: bigint): void {
    this.entry(address).lamports = lamports
  }

  setOwner(address: string, owner: string): void {
    this.entry(address).owner = owner
  }

  setData(address: string, data: Uint8Array): void {
    const entry = this.entry(address)
    entry.data = new Uint8Array(data)
    entry.dataIsPrivate = true
  }

  mutableData(address: string): Uint8Array {
    const entry = this.entry(address)
    if (!entry.dataIsPrivate) {
      entry.data = new Uint8Array(entry.data)
      entry.dataIsPrivate = true
    }
    return entry.data
  }

  /** Accounts whose state differs from the ledger's, as the states to commit. */
  *changes(): Generator<readonly [string, AccountState]> {
    for (const [address, entry] of this.entries) {
      const before = this.base(address)
      if (before === undefined) {
        if (entry.lamports === 0n) continue
      } else if (
        before.lamports === entry.lamports &&
        before.owner === entry.owner &&
        before.executable === entry.executable &&
        (before.data === entry.data || Buffer.from(before.data.buffer, before.data.byteOffset, before.data.length).equals(entry.data))
      ) {
        continue
      }
      yield [address, { owner: entry.owner, lamports: entry.lamports, data: entry.data, executable: entry.executable }]
    }
  }

  private entry(address: string): OverlayEntry {
    let entry = this.entries.get(address)
    if (entry === undefined) {
      const state = this.read(address)
      entry = { owner: state.owner, lamports: state.lamports, data: state.data, executable: state.executable, dataIsPrivate: false }
      this.entries.set(address, entry)
    }
    return entry
  }
}
