import type { SqlClient } from "@effect/sql/SqlClient"
import { Array as Arr, Effect } from "effect"
import type { ProgramEvents } from "../../services/ChainSource.ts"
import { toJsonText } from "../../src/ntbundle/json.ts"
import { eventVault, eventWallet } from "./eventKeys.ts"

/** Rows per multi-row insert (9 parameters per event row, 5 per transaction row). */
const INSERT_CHUNK_ROWS = 1_000

/** The first occurrence of each signature: one statement must not insert the same key twice. */
const firstPerSignature = (transactions: ReadonlyArray<ProgramEvents>): ReadonlyArray<ProgramEvents> => {
  const seen = new Set<string>()
  const unique: Array<ProgramEvents> = []
  for (const tx of transactions) {
    if (seen.has(tx.signature)) continue
    seen.add(tx.signature)
    unique.push(tx)
  }
  return unique
}

/** A failed transaction's events did not happen: it is recorded as seen, with none. */
const storedEvents = (tx: ProgramEvents) => (tx.failed ? [] : tx.events)

const transactionRow = (tx: ProgramEvents) => ({
  signature: tx.signature,
  slot: tx.slot,
  block_time: tx.blockTime,
  failed: tx.failed,
  event_count: storedEvents(tx).length
})

/** The name stored for a data line that is no ntbundle event this gateway can decode. */
export const UNKNOWN_EVENT_NAME = "unknown"

const EMPTY_DATA = "{}"

/**
 * One row per data line: `raw` is the line's bytes exactly as logged; an undecodable line is
 * stored too, named `unknown` with empty data, so nothing the program logged is lost.
 */
const eventRows = (tx: ProgramEvents) =>
  storedEvents(tx).map(({ event, index, raw, user }) => ({
    signature: tx.signature,
    event_index: index,
    slot: tx.slot,
    block_time: tx.blockTime,
    name: event === null ? UNKNOWN_EVENT_NAME : event.name,
    raw,
    data: event === null ? EMPTY_DATA : toJsonText(event.data),
    vault: event === null ? null : eventVault(event),
    wallet: event === null ? null : eventWallet(event, user)
  }))

/** Inserts the transactions not stored yet; returns the signatures it inserted. */
const insertNewTransactions = (sql: SqlClient, transactions: ReadonlyArray<ProgramEvents>) =>
  Effect.reduce(Arr.chunksOf(transactions, INSERT_CHUNK_ROWS), new Set<string>(), (inserted, chunk) =>
    sql<{ signature: string }>`
      INSERT INTO chain_transaction ${sql.insert(chunk.map(transactionRow))}
      ON CONFLICT (signature) DO NOTHING
      RETURNING signature`.pipe(
      Effect.map((rows) => {
        for (const row of rows) inserted.add(row.signature)
        return inserted
      })
    ))

/**
 * Records the transactions not stored yet, and the events of those only, in one transaction: a
 * signature already stored (by an earlier call, or a concurrent one) is skipped with its events.
 */
export const appendTransactions = (sql: SqlClient, transactions: ReadonlyArray<ProgramEvents>) =>
  Effect.gen(function*() {
    const unique = firstPerSignature(transactions)
    if (unique.length === 0) return
    const eventsOf = new Map(unique.map((tx) => [tx.signature, eventRows(tx)] as const))
    yield* sql.withTransaction(
      Effect.gen(function*() {
        const inserted = yield* insertNewTransactions(sql, unique)
        const rows = unique.flatMap((tx) => (inserted.has(tx.signature) ? eventsOf.get(tx.signature) ?? [] : []))
        yield* Effect.forEach(
          Arr.chunksOf(rows, INSERT_CHUNK_ROWS),
          (chunk) => sql`INSERT INTO program_event ${sql.insert(chunk)} ON CONFLICT (signature, event_index) DO NOTHING`,
          { discard: true }
        )
      })
    )
  })

export const hasTransactions = (sql: SqlClient) =>
  sql<{ present: boolean }>`SELECT EXISTS (SELECT 1 FROM chain_transaction) AS present`.pipe(
    Effect.map((rows) => rows[0]?.present === true)
  )
