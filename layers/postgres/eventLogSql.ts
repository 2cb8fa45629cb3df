import type { SqlClient } from "@effect/sql/SqlClient"
import { SqlError } from "@effect/sql/SqlError"
import { Effect, Exit } from "effect"
import { Readable } from "node:stream"
import { pipeline } from "node:stream/promises"
import type Pg from "pg"
import { from as copyFrom } from "pg-copy-streams"
import type { ProgramEvents } from "../../services/ChainSource.ts"
import { toJsonText } from "../../src/ntbundle/json.ts"
import { copyLine } from "./copyText.ts"
import { eventVault, eventWallet } from "./eventKeys.ts"

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

/** The name stored for a data line that is no ntbundle event this gateway can decode. */
export const UNKNOWN_EVENT_NAME = "unknown"

const EMPTY_DATA = "{}"

const INSERT_TRANSACTIONS = `
  INSERT INTO chain_transaction (signature, slot, block_time, failed, event_count)
  SELECT * FROM unnest($1::text[], $2::bigint[], $3::bigint[], $4::boolean[], $5::integer[])
  ON CONFLICT (signature) DO NOTHING
  RETURNING signature`

const COPY_EVENTS = "COPY program_event (signature, event_index, slot, block_time, name, raw, data, vault, wallet) FROM STDIN"

/**
 * One line per data line: `raw` is the line's bytes exactly as logged; an undecodable line is
 * stored too, named `unknown` with empty data, so nothing the program logged is lost.
 */
const eventLines = (tx: ProgramEvents): string => {
  let lines = ""
  for (const { event, index, raw, user } of storedEvents(tx)) {
    lines += copyLine([
      tx.signature,
      index,
      tx.slot,
      tx.blockTime,
      event === null ? UNKNOWN_EVENT_NAME : event.name,
      raw,
      event === null ? EMPTY_DATA : toJsonText(event.data),
      event === null ? null : eventVault(event),
      event === null ? null : eventWallet(event, user)
    ])
  }
  return lines
}

const ignoreError = (): void => {}

const failure = (message: string) => (cause: unknown) => new SqlError({ cause, message })

const query = <Row extends Pg.QueryResultRow = never>(client: Pg.PoolClient, text: string, values: ReadonlyArray<unknown> = []) =>
  Effect.tryPromise({ try: () => client.query<Row>(text, [...values]), catch: failure("Failed to execute statement") })

const copyInto = (client: Pg.PoolClient, statement: string, pieces: Iterable<string>) =>
  Effect.tryPromise({ try: () => pipeline(Readable.from(pieces, { highWaterMark: 1 }), client.query(copyFrom(statement))), catch: failure("COPY failed") })

/**
 * The COPY data of the inserted transactions' events, made a piece of about 64K characters at a
 * time as the connection takes them: a chunk's data made at once (a few MB) outlived young
 * collections while PostgreSQL read it, and one string of it would be flattened and encoded in
 * V8's large-object space, at many times the cost.
 */
const COPY_PIECE_CHARS = 64 * 1024

function* copyPieces(transactions: ReadonlyArray<ProgramEvents>, inserted: ReadonlySet<string>): Generator<string> {
  let piece = ""
  for (const tx of transactions) {
    if (!inserted.has(tx.signature)) continue
    piece += eventLines(tx)
    if (piece.length >= COPY_PIECE_CHARS) {
      yield piece
      piece = ""
    }
  }
  if (piece !== "") yield piece
}

/** Inserts the transactions not stored yet; returns the signatures it inserted. */
const insertNewTransactions = (client: Pg.PoolClient, transactions: ReadonlyArray<ProgramEvents>) =>
  query<{ signature: string }>(client, INSERT_TRANSACTIONS, [
    transactions.map((tx) => tx.signature),
    transactions.map((tx) => tx.slot),
    transactions.map((tx) => tx.blockTime),
    transactions.map((tx) => tx.failed),
    transactions.map((tx) => storedEvents(tx).length)
  ]).pipe(Effect.map((result) => new Set(result.rows.map((row) => row.signature))))

/**
 * Records the transactions not stored yet, and the events of those only, in one transaction: a
 * signature already stored (by an earlier call, or a concurrent one, which waits on the key) is
 * skipped with its events, so the events COPYed in cannot collide. COPY, not INSERT: at a
 * backfill's thousands of events per second it halves this process's CPU and takes a quarter
 * off the database's (no statement of thousands of parameters to bind and plan).
 */
export const appendTransactions = (pool: Pg.Pool, transactions: ReadonlyArray<ProgramEvents>) => {
  const unique = firstPerSignature(transactions)
  if (unique.length === 0) return Effect.void
  return Effect.acquireUseRelease(
    Effect.tryPromise({ try: () => pool.connect(), catch: failure("Failed to acquire connection") }).pipe(
      // a connection that dies while checked out emits "error" (its query fails too): not a crash
      Effect.tap((client) => client.on("error", ignoreError))
    ),
    (client) =>
      Effect.gen(function*() {
        yield* query(client, "BEGIN")
        const inserted = yield* insertNewTransactions(client, unique)
        if (unique.some((tx) => inserted.has(tx.signature) && storedEvents(tx).length > 0)) {
          yield* copyInto(client, COPY_EVENTS, copyPieces(unique, inserted))
        }
        yield* query(client, "COMMIT")
      }),
    // a connection left mid-transaction or mid-COPY is closed, which rolls the transaction back
    (client, exit) =>
      Effect.sync(() => {
        client.off("error", ignoreError)
        client.release(Exit.isSuccess(exit) ? undefined : true)
      })
  )
}

export const hasTransactions = (sql: SqlClient) =>
  sql<{ present: boolean }>`SELECT EXISTS (SELECT 1 FROM chain_transaction) AS present`.pipe(
    Effect.map((rows) => rows[0]?.present === true)
  )
