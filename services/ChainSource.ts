import { Context, Data, type Effect, type Stream } from "effect"
import type { NtEvent } from "../src/ntbundle/events.ts"

/**
 * An account of the program, or one of the watched accounts of other programs (Pyth price feeds,
 * told apart by `owner`), as of `slot`; empty `data` means the account was closed.
 */
export interface AccountUpdated {
  readonly _tag: "AccountUpdated"
  readonly address: string
  readonly owner: string
  readonly slot: number
  readonly data: Uint8Array
}

/**
 * One `Program data:` line the program logged: its bytes exactly as logged (base64-decoded:
 * discriminator + Borsh data) and the ntbundle event they decode to, or null when they are none
 * this gateway knows (an unknown discriminator, or data its layout cannot read).
 */
export interface ProgramDataLine {
  /** Position among the program's data lines of the transaction. */
  readonly index: number
  readonly raw: Uint8Array
  readonly event: NtEvent | null
  /**
   * The position owner (`user_bundle_account_owner`) of the top-level `process_deposit` or
   * `process_withdrawal` instruction the line was logged under; absent for lines of other
   * instructions. It names the user of `Allocated` / `Redeemed`, whose fields do not.
   */
  readonly user?: string
}

/** The ntbundle events one transaction emitted, numbered in log order. */
export interface ProgramEvents {
  readonly _tag: "ProgramEvents"
  readonly signature: string
  readonly slot: number
  readonly blockTime: number | null
  /** A failed transaction's events did not happen; kept so the signature counts as seen. */
  readonly failed: boolean
  readonly events: ReadonlyArray<ProgramDataLine>
  /** Accounts the transaction could write: any program account among them changed at `slot`. */
  readonly writableAccounts: ReadonlyArray<string>
}

/**
 * Every program transaction up to and including `signature` has been delivered (as ProgramEvents):
 * a safe point to resume from after a restart. A null `signature` says the program has no
 * transaction at all yet (as of `slot`): the connection has caught up all the same.
 */
export interface TransactionsComplete {
  readonly _tag: "TransactionsComplete"
  readonly signature: string | null
  readonly slot: number
}

/**
 * The chain reached `slot`. Notifications of one connection arrive in order, so every account and
 * log notification of the slots before `slot` has been delivered already.
 */
export interface SlotAdvanced {
  readonly _tag: "SlotAdvanced"
  readonly slot: number
  /** Block time of `slot - 1`, the newest complete slot; null when the node cannot tell yet. */
  readonly completedBlockTime: number | null
}

/** A full snapshot begins: the AccountUpdated events up to the matching SnapshotEnded form it. */
export interface SnapshotStarted {
  readonly _tag: "SnapshotStarted"
  readonly slot: number
}

/** The snapshot and the replay of notifications buffered during it are complete: state is whole again. */
export interface SnapshotEnded {
  readonly _tag: "SnapshotEnded"
  readonly slot: number
  /**
   * Addresses seen in this snapshot (program accounts and existing watched accounts); accounts the
   * projection holds but the snapshot lacks were closed.
   */
  readonly addresses: ReadonlySet<string>
}

/** The subscription connection is down (or a gap was detected) and a resynchronisation is under way. */
export interface StreamInterrupted {
  readonly _tag: "StreamInterrupted"
  readonly reason: string
}

export type ChainEvent =
  | AccountUpdated
  | ProgramEvents
  | TransactionsComplete
  | SlotAdvanced
  | SnapshotStarted
  | SnapshotEnded
  | StreamInterrupted

export class ChainSourceError extends Data.TaggedError("ChainSourceError")<{
  readonly message: string
  readonly cause?: unknown
}> {}

export interface ResumePoint {
  /** From the last TransactionsComplete: transactions after it are backfilled. */
  readonly lastSignature: string | null
  /** True when the projection holds no state: the stream starts with a full snapshot. */
  readonly needsSnapshot: boolean
}

/**
 * The chain as one ordered stream of program events, resilient to disconnects: after any gap it
 * re-snapshots the program's accounts and backfills missed transactions before going on.
 */
export class ChainSource extends Context.Tag("ChainSource")<
  ChainSource,
  {
    readonly programId: string
    /**
     * Where the chain is read from, for the status page: the RPC and PubSub endpoints' origins
     * (scheme, host, port). Adapters reach the node through SolanaRpc, not through these.
     */
    readonly origin: { readonly rpcUrl: string; readonly wsUrl: string }
    readonly genesisHash: Effect.Effect<string, ChainSourceError>
    readonly blockTime: (slot: number) => Effect.Effect<number | null, ChainSourceError>
    readonly events: (resume: ResumePoint) => Stream.Stream<ChainEvent, ChainSourceError>
    /**
     * The current state of some accounts, as seen at `minSlot` or later; accounts that do not exist
     * come back with empty data and an empty owner. Used to repair accounts whose notifications went
     * missing.
     */
    readonly fetchAccounts: (
      addresses: ReadonlyArray<string>,
      minSlot: number
    ) => Effect.Effect<ReadonlyArray<AccountUpdated>, ChainSourceError>
  }
>() {}
