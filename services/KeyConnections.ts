import { Context, type Effect } from "effect"

/**
 * Open WebSocket connections per partner key, counted across instances. Without it, an instance
 * counts its own connections (one instance: the same thing).
 */
export class KeyConnections extends Context.Tag("KeyConnections")<
  KeyConnections,
  {
    /** Counts one more open connection of the key when that keeps it within `limit`; false when refused. */
    readonly admit: (keyId: string, limit: number) => Effect.Effect<boolean>
    /** One admitted connection of the key is gone (counted in the background). */
    readonly release: (keyId: string) => void
  }
>() {}
