import type { TransactionError } from "../runtime/errors.ts"
import { StringPool } from "./stringPool.ts"

/** A token balance row of `meta.preTokenBalances` / `postTokenBalances`. */
export interface TokenBalance {
  readonly accountIndex: number
  readonly mint: string
  readonly owner: string
  readonly programId: string
  readonly amount: bigint
  readonly decimals: number
}

/** A landed transaction (successful or failed) with what getTransaction reports about it. */
export interface TransactionRecord {
  readonly signature: string
  /** Global landing order: increases with every landed transaction. */
  readonly sequence: number
  readonly slot: number
  readonly blockTime: number
  readonly wireBytes: Uint8Array
  readonly version: "legacy" | 0
  readonly accountKeys: ReadonlyArray<string>
  readonly err: TransactionError | null
  readonly logs: ReadonlyArray<string>
  readonly fee: bigint
  readonly computeUnitsConsumed: number
  readonly preBalances: ReadonlyArray<bigint>
  readonly postBalances: ReadonlyArray<bigint>
  readonly preTokenBalances: ReadonlyArray<TokenBalance>
  readonly postTokenBalances: ReadonlyArray<TokenBalance>
  /** As getSignaturesForAddress reports it: `[len] text` per memo, joined by "; ". */
  readonly memo: string | null
  readonly computeUnitPrice: bigint
}

export type NewTransactionRecord = Omit<TransactionRecord, "sequence">

const DATA_LINE = "Program data: "
/** Distinct strings pooled per store: the scenario's keys and log lines, with room to spare. */
const POOL_CAPACITY = 200_000

/**
 * Landed transactions by signature, and per address the list of transactions that mention it,
 * oldest first (getSignaturesForAddress walks it backwards).
 *
 * Retention: at most `retention` transactions are kept; the oldest are forgotten first, as a node
 * without long-term storage forgets old ledger. A forgotten transaction is the head of every
 * per-address list it is in (lists are in landing order), so forgetting it is a shift per address.
 */
export class TransactionStore {
  private readonly bySignature = new Map<string, TransactionRecord>()
  private readonly byAddress = new Map<string, TransactionRecord[]>()
  private readonly landingOrder: TransactionRecord[] = []
  private landingOrderStart = 0
  private nextSequence = 0
  private readonly strings = new StringPool(POOL_CAPACITY)

  constructor(private readonly retention: number) {}

  get size(): number {
    return this.bySignature.size
  }

  get(signature: string): TransactionRecord | undefined {
    return this.bySignature.get(signature)
  }

  add(input: NewTransactionRecord): TransactionRecord {
    const record = this.recordOf(input, this.nextSequence++)
    this.bySignature.set(record.signature, record)
    this.landingOrder.push(record)
    for (const address of new Set(record.accountKeys)) {
      let list = this.byAddress.get(address)
      if (list === undefined) {
        list = []
        this.byAddress.set(address, list)
      }
      list.push(record)
    }
    this.forgetBeyondRetention()
    return record
  }

  /**
   * Transactions mentioning `address`, newest first: strictly older than `before` when given,
   * stopping before `until` (exclusive), keeping only those at or below `maxSlot`.
   */
  forAddress(
    address: string,
    options: { readonly before?: string; readonly until?: string; readonly limit: number; readonly maxSlot: number }
  ): ReadonlyArray<TransactionRecord> {
    const list = this.byAddress.get(address)
    if (list === undefined) return []
    let start = list.length - 1
    if (options.before !== undefined) {
      const before = this.bySignature.get(options.before)
      if (before === undefined) return []
      start = this.lastIndexBelow(list, before.sequence)
    }
    const untilSequence = options.until === undefined ? -1 : (this.bySignature.get(options.until)?.sequence ?? -1)
    const out: TransactionRecord[] = []
    for (let index = start; index >= 0 && out.length < options.limit; index--) {
      const record = list[index]!
      if (record.sequence <= untilSequence) break
      if (record.slot <= options.maxSlot) out.push(record)
    }
    return out
  }

  /**
   * The record, every field written in one order (one object shape for all records: a spread of
   * inputs built in different places gave each record a shape of its own, tens of MB over a
   * history), with its repeated strings pooled (event data lines are unique: kept as they are).
   */
  private recordOf(input: NewTransactionRecord, sequence: number): TransactionRecord {
    const strings = this.strings
    // Arrays allocated at their final length: grown by push they would keep spare capacity.
    const accountKeys = new Array<string>(input.accountKeys.length)
    for (let index = 0; index < accountKeys.length; index++) accountKeys[index] = strings.intern(input.accountKeys[index]!)
    const logs = new Array<string>(input.logs.length)
    for (let index = 0; index < logs.length; index++) {
      const line = input.logs[index]!
      logs[index] = line.startsWith(DATA_LINE) ? line : strings.intern(line)
    }
    return {
      signature: input.signature,
      sequence,
      slot: input.slot,
      blockTime: input.blockTime,
      wireBytes: input.wireBytes,
      version: input.version,
      accountKeys,
      err: input.err,
      logs,
      fee: input.fee,
      computeUnitsConsumed: input.computeUnitsConsumed,
      preBalances: input.preBalances,
      postBalances: input.postBalances,
      preTokenBalances: this.balances(input.preTokenBalances),
      postTokenBalances: this.balances(input.postTokenBalances),
      memo: input.memo,
      computeUnitPrice: input.computeUnitPrice
    }
  }

  private balances(rows: ReadonlyArray<TokenBalance>): TokenBalance[] {
    const out = new Array<TokenBalance>(rows.length)
    for (let index = 0; index < rows.length; index++) {
      const row = rows[index]!
      out[index] = {
        accountIndex: row.accountIndex,
        mint: this.strings.intern(row.mint),
        owner: this.strings.intern(row.owner),
        programId: this.strings.intern(row.programId),
        amount: row.amount,
        decimals: row.decimals
      }
    }
    return out
  }

  private lastIndexBelow(list: ReadonlyArray<TransactionRecord>, sequence: number): number {
    let low = 0
    let high = list.length
    while (low < high) {
      const middle = (low + high) >> 1
      if (list[middle]!.sequence < sequence) low = middle + 1
      else high = middle
    }
    return low - 1
  }

  private forgetBeyondRetention(): void {
    while (this.bySignature.size > this.retention) {
      const oldest = this.landingOrder[this.landingOrderStart++]!
      this.bySignature.delete(oldest.signature)
      for (const address of new Set(oldest.accountKeys)) {
        const list = this.byAddress.get(address)
        if (list?.[0] === oldest) list.shift()
        if (list?.length === 0) this.byAddress.delete(address)
      }
    }
    if (this.landingOrderStart > 4096 && this.landingOrderStart * 2 > this.landingOrder.length) {
      this.landingOrder.splice(0, this.landingOrderStart)
      this.landingOrderStart = 0
    }
  }
}
