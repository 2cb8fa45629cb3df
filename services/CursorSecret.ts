import { Context, Effect, Option } from "effect"

/**
 * The key that signs page cursors: the same on every instance serving one database, so a cursor
 * issued by one is accepted by the others (behind a load balancer the next page may go anywhere).
 */
export class CursorSecret extends Context.Tag("CursorSecret")<CursorSecret, { readonly key: Uint8Array }>() {}

/** The shared key, or undefined (each codec then draws a random one: cursors valid on this process only). */
export const cursorKey: Effect.Effect<Uint8Array | undefined> = Effect.map(
  Effect.serviceOption(CursorSecret),
  Option.match({ onNone: () => undefined, onSome: (secret) => secret.key })
)
