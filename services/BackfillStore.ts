import { Context, type Effect, type Option } from "effect"
import type { ChainStoreError } from "./ChainStore.ts"

export interface BackfillState {
  readonly newestSignature: string | null
  readonly oldestSignature: string | null
  readonly oldestBlockTime: number | null
  readonly doneCount: number
  readonly totalCount: number | null
  readonly finished: boolean
}

/** Where the history backfill stands, persisted so a restart resumes it. */
export class BackfillStore extends Context.Tag("BackfillStore")<
  BackfillStore,
  {
    readonly load: Effect.Effect<Option.Option<BackfillState>, ChainStoreError>
    readonly save: (state: BackfillState) => Effect.Effect<void, ChainStoreError>
  }
>() {}
