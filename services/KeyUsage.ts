import { Context, type Effect } from "effect"

/** Requests of one key on one UTC day. */
export interface KeyDayUsage {
  readonly keyId: string
  /** `YYYY-MM-DD`. */
  readonly day: string
  readonly requests: number
}

/**
 * Per-key usage: last use and requests per UTC day. `record` only counts in memory (no I/O per
 * request); the implementation writes the counts to storage periodically and at shutdown.
 */
export class KeyUsage extends Context.Tag("KeyUsage")<
  KeyUsage,
  {
    readonly record: (keyId: string, nowMillis: number) => void
    /** Requests per key and UTC day from `fromDay` on (inclusive), with the counts not yet written. */
    readonly daily: (keyIds: ReadonlyArray<string>, fromDay: string) => Effect.Effect<ReadonlyArray<KeyDayUsage>>
  }
>() {}
