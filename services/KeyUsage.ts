import { Context } from "effect"

/**
 * Per-key usage: last use and requests per UTC day. `record` only counts in memory (no I/O per
 * request); the implementation writes the counts to storage periodically and at shutdown.
 */
export class KeyUsage extends Context.Tag("KeyUsage")<
  KeyUsage,
  {
    readonly record: (keyId: string, nowMillis: number) => void
  }
>() {}
