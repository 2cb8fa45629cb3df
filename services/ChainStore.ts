import { Context, Data, type Effect, type Option, type Stream } from "effect"
import type { ProgramEvents } from "./ChainSource.ts"

/** A program account as checkpointed: raw bytes, never decoded JSON, so decoder fixes need no migration. */
export interface StoredAccount {
  readonly address: string
  readonly owner: string
  readonly slot: number
  readonly data: Uint8Array
  /** The vault of a UserBundleAccount when known (it is derived, and costly to derive again). */
  readonly vault: string | null
}

export interface Checkpoint {
  readonly genesisHash: string
  readonly programId: string
  readonly slot: number
  readonly blockTime: number | null
  /** Every program transaction up to this one is in the event log. */
  readonly lastSignature: string | null
}

export class ChainStoreError extends Data.TaggedError("ChainStoreError")<{
  readonly message: string
  readonly cause?: unknown
}> {}

/**
 * Durable chain state in PostgreSQL: the projection's checkpoint (raw accounts + position) and the
 * append-only log of program transactions and their events.
 */
export class ChainStore extends Context.Tag("ChainStore")<
  ChainStore,
  {
    readonly loadCheckpoint: Effect.Effect<Option.Option<Checkpoint>, ChainStoreError>
    /** Every checkpointed account, streamed (there may be millions). */
    readonly checkpointedAccounts: Stream.Stream<StoredAccount, ChainStoreError>
    /** Writes changed and removed accounts and the new position in one transaction. */
    readonly saveCheckpoint: (
      checkpoint: Checkpoint,
      changed: ReadonlyArray<StoredAccount>,
      removed: ReadonlyArray<string>
    ) => Effect.Effect<void, ChainStoreError>
    /** Appends transactions and their events; a signature already stored is skipped (idempotent). */
    readonly appendTransactions: (transactions: ReadonlyArray<ProgramEvents>) => Effect.Effect<void, ChainStoreError>
    readonly hasTransactions: Effect.Effect<boolean, ChainStoreError>
    /** Drops the checkpoint, accounts and event log: used when the chain's genesis hash changed. */
    readonly discardAll: Effect.Effect<void, ChainStoreError>
  }
>() {}
