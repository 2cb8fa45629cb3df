import type { SqlError } from "@effect/sql/SqlError"
import { Context, type Effect } from "effect"
import type { LogKey, UserEvent } from "../src/domain/userHistory/userEvent.ts"

export type { LogKey, UserActivityEventName, UserEvent } from "../src/domain/userHistory/userEvent.ts"
export { USER_ACTIVITY_EVENTS } from "../src/domain/userHistory/userEvent.ts"

export interface ActivityQuery {
  readonly wallet: string
  /** Only this vault's events (a switch counts for its source and its target). */
  readonly vault: string | null
  /** Block time bounds, unix seconds: from inclusive, to exclusive. */
  readonly from: number | null
  readonly to: number | null
  /** Keyset: events strictly older than this one. */
  readonly before: LogKey | null
  readonly limit: number
}

export interface PositionQuery {
  readonly vault: string
  readonly wallet: string
}

/**
 * A wallet's user events from the event log, newest first or by time window, each read on an
 * index of the wallet (sql/0014): a page costs what it returns, not the wallet's whole history.
 */
export class UserActivity extends Context.Tag("UserActivity")<
  UserActivity,
  {
    /** One page of the feed, newest first (slot, signature, event index descending). */
    readonly page: (query: ActivityQuery) => Effect.Effect<ReadonlyArray<UserEvent>, SqlError>
    /** The position's events with block time in [from, to), oldest first (switches that left the vault included). */
    readonly window: (query: PositionQuery & { readonly from: number; readonly to: number }) => Effect.Effect<ReadonlyArray<UserEvent>, SqlError>
    /** The position's newest `limit` events before block time `before`, newest first. */
    readonly before: (query: PositionQuery & { readonly before: number; readonly limit: number }) => Effect.Effect<ReadonlyArray<UserEvent>, SqlError>
    /** Block times of the position's first and last events (null: none). */
    readonly span: (query: PositionQuery) => Effect.Effect<{ readonly first: number | null; readonly last: number | null }, SqlError>
    /** The vaults the wallet has events in. */
    readonly vaultsOf: (wallet: string) => Effect.Effect<ReadonlyArray<string>, SqlError>
    /** False while the history backfill still loads older events. */
    readonly complete: Effect.Effect<boolean, SqlError>
  }
>() {}
