import { randomBytes } from "node:crypto"
import { SqlClient } from "@effect/sql"
import { Config, Effect, Layer, Option, Redacted } from "effect"
import { CursorSecret } from "../../services/CursorSecret.ts"

/**
 * `CURSOR_SECRET` when set; otherwise one random key kept in the database (`sql/0016`), created by
 * whichever instance comes first and read by all: every instance on one database signs alike.
 */
export const CursorSecretLive: Layer.Layer<CursorSecret, never, SqlClient.SqlClient> = Layer.effect(
  CursorSecret,
  Effect.gen(function*() {
    const configured = yield* Config.option(Config.redacted("CURSOR_SECRET")).pipe(Effect.orDie)
    if (Option.isSome(configured)) return { key: Buffer.from(Redacted.value(configured.value)) }
    const sql = yield* SqlClient.SqlClient
    yield* sql`INSERT INTO cursor_secret (id, secret) VALUES (1, ${randomBytes(32)}) ON CONFLICT (id) DO NOTHING`
    const rows = yield* sql<{ secret: Uint8Array }>`SELECT secret FROM cursor_secret WHERE id = 1`
    const secret = rows[0]?.secret
    if (secret === undefined) return yield* Effect.dieMessage("cursor_secret: no row after inserting one")
    return { key: new Uint8Array(secret) }
  }).pipe(Effect.orDie, Effect.withSpan("CursorSecret.load"))
)
