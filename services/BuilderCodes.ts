import type { Address } from "@solana/kit"
import { Context, type Effect } from "effect"

/** Builder codes: short names that resolve to a builder (referrer) wallet. Case-insensitive. */
export class BuilderCodes extends Context.Tag("BuilderCodes")<
  BuilderCodes,
  {
    /** The referrer of an enabled code; null when unknown or disabled. */
    readonly resolve: (code: string) => Effect.Effect<{ readonly code: string; readonly referrer: Address } | null>
    /** Creates the code or points it at `referrer`, enabling it. */
    readonly set: (code: string, referrer: Address) => Effect.Effect<void>
    /** False when there was no such code. */
    readonly disable: (code: string) => Effect.Effect<boolean>
  }
>() {}
