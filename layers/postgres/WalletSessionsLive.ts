import { SqlClient } from "@effect/sql"
import { Effect, Layer } from "effect"
import { WalletSessions, type WalletSessionRecord } from "../../services/WalletSessions.ts"

const COLUMNS = `id::text AS "id", wallet, created_at AS "createdAt", last_seen_at AS "lastSeenAt", expires_at AS "expiresAt"`

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i

/** Sessions in `wallet_session` (sql/0012), by token hash; the idle check is one UPDATE per request. */
export const WalletSessionsLive = Layer.effect(
  WalletSessions,
  Effect.gen(function*() {
    const sql = yield* SqlClient.SqlClient
    const columns = sql.unsafe(COLUMNS)
    return WalletSessions.of({
      create: (tokenHash, wallet, lifetimes) =>
        sql<WalletSessionRecord>`
          INSERT INTO wallet_session (token_hash, wallet, expires_at)
          VALUES (${tokenHash}, ${wallet}, now() + make_interval(secs => ${lifetimes.maxSeconds}))
          RETURNING ${columns}`.pipe(Effect.map((rows) => rows[0]!), Effect.orDie, Effect.withSpan("WalletSessions.create")),
      touch: (tokenHash, lifetimes) =>
        sql<WalletSessionRecord>`
          UPDATE wallet_session SET last_seen_at = now()
          WHERE token_hash = ${tokenHash} AND ended_at IS NULL AND expires_at > now()
            AND last_seen_at > now() - make_interval(secs => ${lifetimes.idleSeconds})
          RETURNING ${columns}`.pipe(Effect.map((rows) => rows[0] ?? null), Effect.orDie, Effect.withSpan("WalletSessions.touch")),
      end: (tokenHash) =>
        sql`UPDATE wallet_session SET ended_at = now() WHERE token_hash = ${tokenHash} AND ended_at IS NULL`.pipe(
          Effect.asVoid,
          Effect.orDie,
          Effect.withSpan("WalletSessions.end")
        ),
      endById: (wallet, id) =>
        UUID.test(id)
          ? sql`
              UPDATE wallet_session SET ended_at = now()
              WHERE id = ${id}::uuid AND wallet = ${wallet} AND ended_at IS NULL RETURNING id`.pipe(
            Effect.map((rows) => rows.length === 1),
            Effect.orDie,
            Effect.withSpan("WalletSessions.endById")
          )
          : Effect.succeed(false),
      listOf: (wallet, lifetimes) =>
        sql<WalletSessionRecord>`
          SELECT ${columns} FROM wallet_session
          WHERE wallet = ${wallet} AND ended_at IS NULL AND expires_at > now()
            AND last_seen_at > now() - make_interval(secs => ${lifetimes.idleSeconds})
          ORDER BY created_at DESC LIMIT 100`.pipe(Effect.orDie, Effect.withSpan("WalletSessions.listOf"))
    })
  })
)
