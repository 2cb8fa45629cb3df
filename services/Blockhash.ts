import { Context, type Effect } from "effect"
import type { LatestBlockhash } from "../src/domain/builds/blockhash.ts"
import type { BlockhashUnavailable } from "../src/domain/builds/errors.ts"

export type { LatestBlockhash }

/**
 * The latest blockhash, kept fresh in the background: builds read it from memory and never wait on
 * an RPC round trip. Fails when the cached value is missing or older than the freshness bound.
 */
export class Blockhash extends Context.Tag("Blockhash")<
  Blockhash,
  {
    readonly latest: Effect.Effect<LatestBlockhash, BlockhashUnavailable>
  }
>() {}
