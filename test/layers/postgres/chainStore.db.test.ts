import { SqlClient } from "@effect/sql"
import { describe, expect, layer } from "@effect/vitest"
import { type Address, getAddressDecoder } from "@solana/kit"
import { Chunk, Effect, Either, Layer, Option, Stream } from "effect"
import { randomBytes } from "node:crypto"
import { ChainStoreLive } from "../../../layers/postgres/ChainStoreLive.ts"
import type { ProgramEvents } from "../../../services/ChainSource.ts"
import { type Checkpoint, ChainStore, type StoredAccount } from "../../../services/ChainStore.ts"
import { decodeEvent, encodeEvent, type NtEvent } from "../../../src/ntbundle/events.ts"
import { toJson } from "../../../src/ntbundle/json.ts"
import { NTBUNDLE_PROGRAM_ID } from "../../../src/ntbundle/programs.ts"
import { TestDatabase } from "../../../src/bench/support/testDatabase.ts"

// Deterministic, valid addresses: `n` in the last bytes of a 32-byte key with a per-kind prefix.
const addressOf = (kind: number, n: number): Address => {
  const key = new Uint8Array(32)
  key[0] = kind
  new DataView(key.buffer).setUint32(28, n)
  return getAddressDecoder().decode(key)
}
const VAULT = addressOf(1, 1)
const OTHER_VAULT = addressOf(1, 2)
const USER = addressOf(2, 1)
const OTHER_USER = addressOf(2, 2)
const MINT = addressOf(3, 1)

const account = (n: number, fields: Partial<StoredAccount> = {}): StoredAccount => ({
  address: addressOf(9, n),
  owner: NTBUNDLE_PROGRAM_ID,
  slot: 345_678_901_234 + n, // beyond 32 bits: the column must be a bigint
  data: randomBytes(440),
  vault: n % 2 === 0 ? VAULT : null,
  ...fields
})

const checkpointAt = (slot: number, fields: Partial<Checkpoint> = {}): Checkpoint => ({
  genesisHash: "5eykt4UsFv8P8NJdTREpY1vzqKqZKvdpKuc147dw2N9d",
  programId: NTBUNDLE_PROGRAM_ID,
  slot,
  blockTime: 1_760_000_000,
  lastSignature: `sig-at-${slot}`,
  ...fields
})

const toHex = (bytes: Uint8Array): string => Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength).toString("hex")

/** Comparable form of an account: hex data, so a Buffer and a Uint8Array with equal bytes compare equal. */
const comparable = (stored: StoredAccount) => ({ ...stored, data: toHex(stored.data) })

const storedAccounts = Effect.flatMap(ChainStore, (store) => Stream.runCollect(store.checkpointedAccounts)).pipe(
  Effect.map((accounts) =>
    Chunk.toReadonlyArray(accounts)
      .map(comparable)
      .sort((a, b) => a.address.localeCompare(b.address))
  )
)

const expectedAccounts = (accounts: ReadonlyArray<StoredAccount>) =>
  accounts.map(comparable).sort((a, b) => a.address.localeCompare(b.address))

const deposit = (user: Address, vault: Address, amount: bigint): NtEvent => ({
  name: "DepositRequested",
  data: {
    user,
    amount,
    timestamp: 1_760_000_123n,
    bundleAccountKey: vault,
    toppingUp: false,
    grossAmount: amount,
    feeAmount: amount / 100n,
    netAmount: amount - amount / 100n,
    assetMint: MINT
  }
})

const allocated = (from: Address, vault: Address, shares: bigint): NtEvent => ({
  name: "Allocated",
  data: {
    from,
    to: vault,
    amount: 990_000n,
    timestamp: 1_760_000_456n,
    bundleAccountKey: vault,
    netAmount: 990_000n,
    sharePrice: 1_000_000_000_000n,
    userSharesBefore: 0n,
    userSharesAfter: shares,
    totalShares: 2n ** 100n, // u128: beyond 64 bits
    referredNetDepositsAfter: null
  }
})

const transaction = (
  signature: string,
  slot: number,
  events: ReadonlyArray<NtEvent>,
  failed = false
): ProgramEvents => ({
  _tag: "ProgramEvents",
  signature,
  slot,
  blockTime: 1_760_000_000 + slot,
  failed,
  events: events.map((event, index) => ({ index, raw: encodeEvent(event), event })),
  writableAccounts: []
})

interface EventRow {
  readonly signature: string
  readonly eventIndex: number
  readonly slot: string
  readonly blockTime: string | null
  readonly name: string
  readonly raw: Uint8Array
  readonly data: unknown
  readonly vault: string | null
  readonly wallet: string | null
}

const eventRows = Effect.flatMap(SqlClient.SqlClient, (sql) =>
  sql<EventRow>`
    SELECT signature, event_index AS "eventIndex", slot, block_time AS "blockTime", name, raw, data, vault, wallet
    FROM program_event ORDER BY signature, event_index`)

/** What `tx`'s event `index` must look like once stored. */
const expectedEventRow = (tx: ProgramEvents, index: number, vault: string | null, wallet: string | null) => {
  const { event, raw } = tx.events[index]!
  if (event === null) throw new Error("expectedEventRow is for decoded events")
  return {
    signature: tx.signature,
    eventIndex: index,
    slot: String(tx.slot),
    blockTime: String(tx.blockTime),
    name: event.name,
    raw: toHex(raw),
    data: toJson(event.data),
    vault,
    wallet
  }
}

const countRows = (table: "checkpoint" | "chain_account" | "chain_transaction" | "program_event" | "history_backfill") =>
  Effect.flatMap(SqlClient.SqlClient, (sql) => sql<{ n: string }>`SELECT count(*) AS n FROM ${sql(table)}`).pipe(
    Effect.map((rows) => Number(rows[0]?.n))
  )

const freshStore = Effect.flatMap(ChainStore, (store) => Effect.as(store.discardAll, store))

layer(ChainStoreLive.pipe(Layer.provideMerge(TestDatabase)), { timeout: 120_000 })("ChainStore on PostgreSQL", (it) => {
  describe("checkpoint", () => {
    it.effect("round-trips the position and the raw account bytes", () =>
      Effect.gen(function*() {
        const store = yield* freshStore
        expect(yield* store.loadCheckpoint).toEqual(Option.none())

        const accounts = [
          account(1, { vault: null }),
          account(2, { vault: VAULT, data: randomBytes(165) }),
          account(3, { data: new Uint8Array(0) }),
          account(4, { data: new Uint8Array(440) }) // all zeros
        ]
        const first = checkpointAt(345_678_901_300, { blockTime: null, lastSignature: null })
        yield* store.saveCheckpoint(first, accounts, [])
        expect(yield* store.loadCheckpoint).toEqual(Option.some(first))
        expect(yield* storedAccounts).toEqual(expectedAccounts(accounts))

        const second = checkpointAt(345_678_901_400)
        yield* store.saveCheckpoint(second, [], [])
        expect(yield* store.loadCheckpoint).toEqual(Option.some(second))
        expect(yield* countRows("checkpoint")).toBe(1)
        expect(yield* storedAccounts).toEqual(expectedAccounts(accounts))
      }))

    it.effect("a later save updates changed accounts in place and deletes removed ones", () =>
      Effect.gen(function*() {
        const store = yield* freshStore
        const [a, b, c] = [account(1), account(2), account(3)]
        yield* store.saveCheckpoint(checkpointAt(100), [a, b, c], [])

        const bChanged = { ...b, slot: b.slot + 50, data: randomBytes(440), vault: OTHER_VAULT }
        const bLatest = { ...bChanged, slot: b.slot + 60, data: randomBytes(440) }
        const d = account(4)
        // b twice in one save: the last one given wins
        yield* store.saveCheckpoint(checkpointAt(200), [bChanged, d, bLatest], [c.address])

        expect(yield* storedAccounts).toEqual(expectedAccounts([a, bLatest, d]))
        expect(Option.map(yield* store.loadCheckpoint, (checkpoint) => checkpoint.slot)).toEqual(Option.some(200))
      }))

    it.effect("a failing save changes nothing: accounts, removals and position are one transaction", () =>
      Effect.gen(function*() {
        const store = yield* freshStore
        const accounts = Array.from({ length: 1_500 }, (_, i) => account(i))
        const before = checkpointAt(1_000)
        yield* store.saveCheckpoint(before, accounts, [])

        // 1,200 updates (two insert batches) whose last row overflows the bigint slot column, so
        // the first batch has been written when the statement of the second fails.
        const updates = accounts.slice(0, 1_200).map((stored, i) => ({
          ...stored,
          data: randomBytes(440),
          slot: i === 1_199 ? 2 ** 64 : stored.slot + 1
        }))
        const removed = accounts.slice(1_300).map((stored) => stored.address)
        const error = yield* Effect.flip(store.saveCheckpoint(checkpointAt(2_000), updates, removed))

        expect(error._tag).toBe("ChainStoreError")
        expect(error.message).toContain("could not save the checkpoint at slot 2000")
        expect(error.message).toContain("out of range")
        expect(yield* store.loadCheckpoint).toEqual(Option.some(before))
        expect(yield* storedAccounts).toEqual(expectedAccounts(accounts))
      }))
  })

  describe("checkpointedAccounts", () => {
    it.effect("streams every account exactly once, over many pages", () =>
      Effect.gen(function*() {
        const store = yield* freshStore
        const accounts = Array.from({ length: 20_000 }, (_, i) => account(i))
        yield* store.saveCheckpoint(checkpointAt(10), accounts, [])

        const streamed = yield* storedAccounts
        expect(streamed.length).toBe(accounts.length)
        expect(new Set(streamed.map((stored) => stored.address)).size).toBe(accounts.length)
        expect(streamed).toEqual(expectedAccounts(accounts))
      }))

    it.effect("is one snapshot: a checkpoint saved while it runs does not show", () =>
      Effect.gen(function*() {
        const store = yield* freshStore
        const accounts = Array.from({ length: 10_000 }, (_, i) => account(i))
        yield* store.saveCheckpoint(checkpointAt(10), accounts, [])

        const seen = yield* Effect.scoped(
          Effect.gen(function*() {
            const pull = yield* Stream.toPull(store.checkpointedAccounts)
            const pages = [yield* pull]
            // Rewrite half the accounts and delete the other half mid-stream.
            yield* store.saveCheckpoint(
              checkpointAt(20),
              accounts.slice(0, 5_000).map((stored) => ({ ...stored, data: randomBytes(440) })),
              accounts.slice(5_000).map((stored) => stored.address)
            )
            for (;;) {
              const page = yield* Effect.either(pull)
              if (Either.isLeft(page)) {
                if (Option.isSome(page.left)) return yield* Effect.fail(page.left.value)
                break
              }
              pages.push(page.right)
            }
            return pages.flatMap((page) => Chunk.toReadonlyArray(page))
          })
        )
        expect(seen.map(comparable).sort((a, b) => a.address.localeCompare(b.address))).toEqual(
          expectedAccounts(accounts)
        )
        expect(yield* countRows("chain_account")).toBe(5_000)
      }))

    it.effect("gives its connection back when the consumer stops early", () =>
      Effect.gen(function*() {
        const store = yield* freshStore
        yield* store.saveCheckpoint(checkpointAt(10), Array.from({ length: 9_000 }, (_, i) => account(i)), [])
        // More early stops than the pool has connections: a leaked connection would hang here.
        for (let i = 0; i < 15; i++) {
          const firstFew = yield* Stream.runCollect(Stream.take(store.checkpointedAccounts, 5))
          expect(Chunk.size(firstFew)).toBe(5)
        }
        const sql = yield* SqlClient.SqlClient
        const open = yield* sql<{ n: string }>`
          SELECT count(*) AS n FROM pg_stat_activity
          WHERE datname = current_database() AND state LIKE 'idle in transaction%'`
        expect(Number(open[0]?.n)).toBe(0)
      }))
  })

  describe("event log", () => {
    it.effect("stores each transaction and event once across overlapping batches", () =>
      Effect.gen(function*() {
        const store = yield* freshStore
        expect(yield* store.hasTransactions).toBe(false)

        const txA = transaction("sigA", 500, [deposit(USER, VAULT, 1_000_000n), allocated(USER, VAULT, 990n)])
        const txB = transaction("sigB", 501, [allocated(OTHER_USER, OTHER_VAULT, 5n)])
        const txBAgain = transaction("sigB", 501, [deposit(OTHER_USER, OTHER_VAULT, 7n), allocated(USER, VAULT, 1n)])
        const txC = transaction("sigC", 502, [deposit(OTHER_USER, VAULT, 42n)])

        yield* store.appendTransactions([txA, txB])
        // sigB again (with different events: a stored signature is skipped whole), and sigC twice.
        yield* store.appendTransactions([txBAgain, txC, txC])
        yield* store.appendTransactions([])

        expect(yield* store.hasTransactions).toBe(true)
        const sql = yield* SqlClient.SqlClient
        const transactions = yield* sql`
          SELECT signature, slot, block_time AS "blockTime", failed, event_count AS "eventCount"
          FROM chain_transaction ORDER BY signature`
        expect(transactions).toEqual([
          { signature: "sigA", slot: "500", blockTime: "1760000500", failed: false, eventCount: 2 },
          { signature: "sigB", slot: "501", blockTime: "1760000501", failed: false, eventCount: 1 },
          { signature: "sigC", slot: "502", blockTime: "1760000502", failed: false, eventCount: 1 }
        ])

        const rows = yield* eventRows
        expect(rows.map((row) => ({ ...row, raw: toHex(row.raw) }))).toEqual([
          expectedEventRow(txA, 0, VAULT, USER),
          // Allocations name token accounts: without the emitting instruction's owner, no wallet.
          expectedEventRow(txA, 1, VAULT, null),
          expectedEventRow(txB, 0, OTHER_VAULT, null),
          expectedEventRow(txC, 0, VAULT, OTHER_USER)
        ])
        // The raw bytes are the event as the program logs it: they decode back to the same event.
        expect(rows.map((row) => decodeEvent(row.raw))).toEqual(
          [txA.events[0], txA.events[1], txB.events[0], txC.events[0]].map((entry) => Either.right(entry!.event))
        )
      }))

    it.effect("stores every data line's bytes as logged, an undecodable one as `unknown`", () =>
      Effect.gen(function*() {
        const store = yield* freshStore
        const known = deposit(USER, VAULT, 9n)
        // An unknown discriminator, and a known one cut short: neither decodes, both are kept.
        const unknownBytes = Uint8Array.from([0xde, 0xad, 0xbe, 0xef, 1, 2, 3, 4, 5, 6, 7])
        const truncated = encodeEvent(known).subarray(0, 20)
        const tx: ProgramEvents = {
          ...transaction("sigMixed", 700, []),
          events: [
            { index: 0, raw: unknownBytes, event: null },
            { index: 1, raw: encodeEvent(known), event: known },
            { index: 3, raw: truncated, event: null }
          ]
        }
        yield* store.appendTransactions([tx])

        const rows = yield* eventRows
        expect(rows.map((row) => ({ index: row.eventIndex, name: row.name, raw: toHex(row.raw), data: row.data, vault: row.vault, wallet: row.wallet }))).toEqual([
          { index: 0, name: "unknown", raw: toHex(unknownBytes), data: {}, vault: null, wallet: null },
          { index: 1, name: "DepositRequested", raw: toHex(encodeEvent(known)), data: toJson(known.data), vault: VAULT, wallet: USER },
          { index: 3, name: "unknown", raw: toHex(truncated), data: {}, vault: null, wallet: null }
        ])
        const sql = yield* SqlClient.SqlClient
        expect(yield* sql`SELECT event_count AS "eventCount" FROM chain_transaction WHERE signature = 'sigMixed'`).toEqual([{ eventCount: 3 }])
      }))

    it.effect("stores text and bytes that COPY must escape exactly as given", () =>
      Effect.gen(function*() {
        const store = yield* freshStore
        const odd = "tab\there, newline\nthere, back\\slash, return\r, and \\N"
        const base = deposit(USER, VAULT, 3n)
        const event = { ...base, data: { ...base.data, user: odd, note: odd } } as unknown as NtEvent
        const raw = Uint8Array.from([0x5c, 0x09, 0x0a, 0x0d, 0x00, 0x4e])
        yield* store.appendTransactions([{ ...transaction("sigOdd", 800, []), events: [{ index: 0, raw, event }] }])

        const sql = yield* SqlClient.SqlClient
        const rows = yield* sql<{ wallet: string; note: string; raw: Uint8Array }>`
          SELECT wallet, data->>'note' AS note, raw FROM program_event WHERE signature = 'sigOdd'`
        expect(rows.map((row) => ({ wallet: row.wallet, note: row.note, raw: toHex(row.raw) }))).toEqual([
          { wallet: odd, note: odd, raw: "5c090a0d004e" }
        ])
      }))

    it.effect("records a failed transaction as seen, without its events", () =>
      Effect.gen(function*() {
        const store = yield* freshStore
        yield* store.appendTransactions([transaction("sigFailed", 600, [deposit(USER, VAULT, 5n)], true)])

        const sql = yield* SqlClient.SqlClient
        const stored = yield* sql`SELECT failed, event_count AS "eventCount" FROM chain_transaction WHERE signature = 'sigFailed'`
        expect(stored).toEqual([{ failed: true, eventCount: 0 }])
        expect(yield* countRows("program_event")).toBe(0)
        expect(yield* store.hasTransactions).toBe(true)
      }))

    it.effect("stores large batches in several statements", () =>
      Effect.gen(function*() {
        const store = yield* freshStore
        const transactions = Array.from({ length: 1_500 }, (_, i) =>
          transaction(`sig${i}`, 1_000 + i, [deposit(USER, VAULT, BigInt(i + 1)), allocated(USER, VAULT, 1n)]))
        yield* store.appendTransactions(transactions)
        yield* store.appendTransactions(transactions.slice(1_000))
        expect(yield* countRows("chain_transaction")).toBe(1_500)
        expect(yield* countRows("program_event")).toBe(3_000)
      }))
  })

  it.effect("discardAll empties the checkpoint, the accounts, the event log and the backfill's progress", () =>
    Effect.gen(function*() {
      const store = yield* freshStore
      const sql = yield* SqlClient.SqlClient
      yield* sql`INSERT INTO history_backfill (newest_signature, done_count) VALUES ('sigD', 1)`
      yield* store.saveCheckpoint(checkpointAt(10), [account(1), account(2)], [])
      yield* store.appendTransactions([transaction("sigD", 10, [deposit(USER, VAULT, 1n)])])

      yield* store.discardAll

      expect(yield* store.loadCheckpoint).toEqual(Option.none())
      expect(yield* storedAccounts).toEqual([])
      expect(yield* store.hasTransactions).toBe(false)
      for (const table of ["checkpoint", "chain_account", "chain_transaction", "program_event", "history_backfill"] as const) {
        expect(yield* countRows(table)).toBe(0)
      }
    }))
})
