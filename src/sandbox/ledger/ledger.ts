import { AccountStore, type AccountRecord } from "./accountStore.ts"
import { ChainClock } from "./chainClock.ts"
import { TransactionStore, type NewTransactionRecord, type TransactionRecord } from "./transactionStore.ts"
import { SYSTEM_PROGRAM_ID } from "../programs/ids.ts"

/** What a writer hands the ledger; the ledger stamps the slot. */
export interface AccountState {
  readonly owner: string
  readonly lamports: bigint
  readonly data: Uint8Array
  readonly executable: boolean
}

/**
 * One account's new state. A closed account (zero lamports) is reported as Solana reports it:
 * lamports 0, owned by the System program, no data.
 */
export interface AccountWrite {
  readonly address: string
  readonly record: AccountRecord
}

export type LedgerEvent =
  | {
      readonly kind: "accounts"
      readonly slot: number
      readonly writes: ReadonlyArray<AccountWrite>
      /** The transaction that made the writes; undefined for direct writes (genesis, sandbox_setAccount). */
      readonly transaction: TransactionRecord | undefined
    }
  | { readonly kind: "slot"; readonly slot: number; readonly parent: number; readonly root: number }

export type LedgerListener = (event: LedgerEvent) => void

export interface LedgerOptions {
  readonly genesisHash: Uint8Array
  readonly firstSlot: number
  readonly genesisUnixMs: number
  readonly slotMs: number
  readonly finalityLagSlots: number
  readonly transactionRetention: number
}

const EMPTY_DATA = new Uint8Array(0)
const RECENT_PRIORITIZATION_SLOTS = 150

/**
 * The chain state: accounts, clock and landed transactions, with one ordered event stream that
 * the PubSub server and in-process observers follow. All changes go through here, synchronously.
 */
export class Ledger {
  readonly accounts = new AccountStore()
  readonly clock: ChainClock
  readonly transactions: TransactionStore
  private readonly listeners = new Set<LedgerListener>()
  /** Lowest compute-unit price of the transactions landed in each recent slot. */
  private readonly prioritizationFees = new Map<number, bigint>()

  constructor(options: LedgerOptions) {
    this.clock = new ChainClock(options)
    this.transactions = new TransactionStore(options.transactionRetention)
  }

  get slot(): number {
    return this.clock.slot
  }

  getAccount(address: string): AccountRecord | undefined {
    return this.accounts.get(address)
  }

  subscribe(listener: LedgerListener): () => void {
    this.listeners.add(listener)
    return () => this.listeners.delete(listener)
  }

  /** Direct writes outside any transaction (genesis, bulk loads, sandbox_setAccount). */
  writeAccounts(states: Iterable<readonly [string, AccountState | undefined]>, options: { readonly notify?: boolean } = {}): void {
    const writes = this.store(states)
    if (options.notify !== false && writes.length > 0) this.emit({ kind: "accounts", slot: this.slot, writes, transaction: undefined })
  }

  /** Lands a transaction: its account changes and its record, atomically, at the current slot. */
  commitTransaction(states: Iterable<readonly [string, AccountState | undefined]>, input: NewTransactionRecord): TransactionRecord {
    const writes = this.store(states)
    const transaction = this.transactions.add(input)
    const lowest = this.prioritizationFees.get(transaction.slot)
    if (lowest === undefined || transaction.computeUnitPrice < lowest) this.prioritizationFees.set(transaction.slot, transaction.computeUnitPrice)
    this.emit({ kind: "accounts", slot: this.slot, writes, transaction })
    return transaction
  }

  /** getRecentPrioritizationFees: per recent slot, the lowest price paid (0 for slots without transactions). */
  recentPrioritizationFees(): Array<{ readonly slot: number; readonly prioritizationFee: bigint }> {
    const tip = this.slot
    const out: Array<{ readonly slot: number; readonly prioritizationFee: bigint }> = []
    for (let slot = Math.max(this.clock.firstSlot, tip - RECENT_PRIORITIZATION_SLOTS + 1); slot <= tip; slot++) {
      out.push({ slot, prioritizationFee: this.prioritizationFees.get(slot) ?? 0n })
    }
    return out
  }

  /** Advances the tip one slot at a time, announcing each new slot. */
  advanceSlots(slots: number, msPerSlot?: number): void {
    for (let step = 0; step < slots; step++) {
      const parent = this.clock.slot
      const slot = this.clock.advance(1, msPerSlot)
      this.prioritizationFees.delete(slot - RECENT_PRIORITIZATION_SLOTS)
      this.emit({ kind: "slot", slot, parent, root: this.clock.finalizedSlot })
    }
  }

  private store(states: Iterable<readonly [string, AccountState | undefined]>): AccountWrite[] {
    const slot = this.slot
    const writes: AccountWrite[] = []
    for (const [address, state] of states) {
      const record: AccountRecord =
        state === undefined || state.lamports === 0n
          ? { owner: SYSTEM_PROGRAM_ID, lamports: 0n, data: EMPTY_DATA, executable: false, slot }
          : { owner: state.owner, lamports: state.lamports, data: state.data, executable: state.executable, slot }
      this.accounts.put(address, record)
      writes.push({ address, record })
    }
    return writes
  }

  // A failing observer must not leave the others (or the writer) half-notified.
  private emit(event: LedgerEvent): void {
    for (const listener of this.listeners) {
      try {
        listener(event)
      } catch (error) {
        console.error("sandbox ledger listener failed", error)
      }
    }
  }
}
