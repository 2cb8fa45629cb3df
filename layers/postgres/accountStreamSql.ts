import type { SqlClient } from "@effect/sql/SqlClient"
import type { SqlError } from "@effect/sql/SqlError"
import { Chunk, Effect, Option, Stream } from "effect"
import type { StoredAccount } from "../../services/ChainStore.ts"

/**
 * Rows per FETCH, and so per emitted chunk: Effect's default chunk size. Round trips hardly matter
 * at this size, and larger chunks overflow the stack in folding sinks (`Stream.runFold` recurses
 * once per element of a chunk).
 */
const PAGE_ROWS = 4_096

const CURSOR = "checkpointed_accounts"

// node-postgres hands every column over as a string, so bytea would arrive as hex (2 chars per
// byte) and be decoded by a regex-checking parser; base64 is a third shorter and Buffer decodes it
// natively (skipping the line breaks PostgreSQL puts in). No ORDER BY: a sequential scan is the
// fastest read, and the port promises no order.
const SELECT_ACCOUNTS = "SELECT address, owner, slot, encode(data, 'base64'), vault FROM chain_account"

/** `[address, owner, slot (int8 as decimal string), data (base64), vault]`, as selected above. */
const accountFromRow = (row: ReadonlyArray<unknown>): StoredAccount => ({
  address: row[0] as string,
  owner: row[1] as string,
  slot: Number(row[2]),
  data: Buffer.from(row[3] as string, "base64"),
  vault: row[4] as string | null
})

/**
 * Every checkpointed account, in no particular order, read through a server-side cursor (which
 * needs a transaction block): the cursor reads the snapshot taken when it was opened, so the stream
 * is consistent even if a checkpoint is written meanwhile. Only a few pages are in memory at a
 * time, and the next one is fetched while the consumer works on the current one. The connection is
 * held until the stream ends or is interrupted.
 */
export const streamAccounts = (sql: SqlClient): Stream.Stream<StoredAccount, SqlError> =>
  Stream.unwrapScoped(
    Effect.gen(function*() {
      const connection = yield* sql.reserve
      yield* Effect.acquireRelease(
        connection.executeRaw("BEGIN READ ONLY", []),
        // Runs before the connection goes back to the pool; a broken connection is dropped anyway.
        () => Effect.ignore(connection.executeRaw("ROLLBACK", []))
      )
      yield* connection.executeRaw(`DECLARE ${CURSOR} NO SCROLL CURSOR FOR ${SELECT_ACCOUNTS}`, [])
      let exhausted = false
      const nextPage = Effect.suspend(() =>
        exhausted
          ? Effect.fail(Option.none())
          : connection.executeValues(`FETCH FORWARD ${PAGE_ROWS} FROM ${CURSOR}`, []).pipe(
            Effect.mapError(Option.some),
            Effect.flatMap((rows) => {
              exhausted = rows.length < PAGE_ROWS
              return rows.length === 0
                ? Effect.fail(Option.none())
                : Effect.succeed(Chunk.unsafeFromArray(rows.map(accountFromRow)))
            })
          )
      )
      return Stream.repeatEffectChunkOption(nextPage).pipe(Stream.bufferChunks({ capacity: 2 }))
    })
  )
