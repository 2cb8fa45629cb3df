import type { SqlClient } from "@effect/sql/SqlClient"
import { Array as Arr, Effect, Option } from "effect"
import type { Checkpoint, StoredAccount } from "../../services/ChainStore.ts"

/** Rows per multi-row upsert: 5 parameters each, well under PostgreSQL's 65,535 bind parameters. */
const UPSERT_CHUNK_ROWS = 1_000
const DELETE_CHUNK_ROWS = 5_000

interface CheckpointRow {
  readonly genesisHash: string
  readonly programId: string
  readonly slot: string
  readonly blockTime: string | null
  readonly lastSignature: string | null
}

/** bigint columns come back from node-postgres as decimal strings. */
const checkpointFromRow = (row: CheckpointRow): Checkpoint => ({
  genesisHash: row.genesisHash,
  programId: row.programId,
  slot: Number(row.slot),
  blockTime: row.blockTime === null ? null : Number(row.blockTime),
  lastSignature: row.lastSignature
})

export const loadCheckpoint = (sql: SqlClient) =>
  sql<CheckpointRow>`
    SELECT genesis_hash AS "genesisHash", program_id AS "programId", slot,
           block_time AS "blockTime", last_signature AS "lastSignature"
    FROM checkpoint WHERE id = 1`.pipe(
    Effect.map((rows) => Option.map(Arr.head(rows), checkpointFromRow))
  )

/**
 * One row per address, the last one given winning: a multi-row `ON CONFLICT DO UPDATE` fails when
 * it would update the same row twice. Across chunks the statements run in order, so last still wins.
 */
const lastPerAddress = (chunk: ReadonlyArray<StoredAccount>): ReadonlyArray<StoredAccount> => {
  const byAddress = new Map<string, StoredAccount>()
  for (const account of chunk) byAddress.set(account.address, account)
  return byAddress.size === chunk.length ? chunk : Array.from(byAddress.values())
}

const accountRow = ({ address, owner, slot, data, vault }: StoredAccount) => ({ address, owner, slot, data, vault })

const upsertAccounts = (sql: SqlClient, accounts: ReadonlyArray<StoredAccount>) =>
  Effect.forEach(
    Arr.chunksOf(accounts, UPSERT_CHUNK_ROWS),
    (chunk) =>
      sql`
        INSERT INTO chain_account ${sql.insert(lastPerAddress(chunk).map(accountRow))}
        ON CONFLICT (address) DO UPDATE
        SET owner = EXCLUDED.owner, slot = EXCLUDED.slot, data = EXCLUDED.data, vault = EXCLUDED.vault
        WHERE chain_account.slot <= EXCLUDED.slot`,
    { discard: true }
  )

const deleteAccounts = (sql: SqlClient, addresses: ReadonlyArray<string>) =>
  Effect.forEach(
    Arr.chunksOf(addresses, DELETE_CHUNK_ROWS),
    (chunk) => sql`DELETE FROM chain_account WHERE address IN ${sql.in(chunk)}`,
    { discard: true }
  )

const upsertPosition = (sql: SqlClient, checkpoint: Checkpoint) =>
  sql`
    INSERT INTO checkpoint (id, genesis_hash, program_id, slot, block_time, last_signature, written_at)
    VALUES (1, ${checkpoint.genesisHash}, ${checkpoint.programId}, ${checkpoint.slot},
            ${checkpoint.blockTime}, ${checkpoint.lastSignature}, now())
    ON CONFLICT (id) DO UPDATE
    SET genesis_hash = EXCLUDED.genesis_hash, program_id = EXCLUDED.program_id, slot = EXCLUDED.slot,
        block_time = EXCLUDED.block_time, last_signature = EXCLUDED.last_signature, written_at = now()
    WHERE checkpoint.slot <= EXCLUDED.slot`

/**
 * Changed accounts, removed accounts and the position, all or nothing. Removals are applied after
 * the upserts, so an address given in both ends up removed.
 *
 * Guarded by slot, so an older state never overwrites a newer one when two instances write (a
 * leader that lost its lock and does not know it yet, or a new leader a slot behind the old one):
 * each account row keeps the newest version written, and the position moves only forwards. A
 * writer whose position is refused still lands its newer accounts, so none of its changes is lost.
 * Removals carry no slot and are applied as given (a closed account stays closed).
 */
export const saveCheckpoint = (
  sql: SqlClient,
  checkpoint: Checkpoint,
  changed: ReadonlyArray<StoredAccount>,
  removed: ReadonlyArray<string>
) =>
  sql.withTransaction(
    Effect.all([upsertAccounts(sql, changed), deleteAccounts(sql, removed), upsertPosition(sql, checkpoint)], {
      discard: true
    })
  )
