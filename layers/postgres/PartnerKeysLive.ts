import { PgClient } from "@effect/sql-pg"
import { randomUUID } from "node:crypto"
import { Effect, Layer, Option, Redacted, Stream } from "effect"
import {
  type Invalidation,
  type IssueKey,
  PartnerKeyNotFound,
  type PartnerKeyRecord,
  PartnerKeys,
  PartnerKeyStoreError,
  ROTATION_GRACE_SECONDS
} from "../../services/PartnerKeys.ts"
import { generateApiKey, hashApiKey, KEY_PREFIXES } from "../../src/domain/partnerKeys/apiKeyFormat.ts"
import type { Cluster } from "../../src/config.ts"
import type { KeyScope } from "../../src/domain/partnerKeys/scopes.ts"

/** NOTIFY channel: the payload is the hash of a key whose record changed. */
export const PARTNER_KEY_CHANNEL = "partner_key_changed"

const LISTENING_TOKEN = "listening:"
const HEARTBEAT = "5 seconds"
const HEARTBEAT_DEADLINE_MS = 15_000

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i

interface Row {
  readonly id: string
  readonly name: string
  readonly ownerWallet: string | null
  readonly environment: Cluster
  readonly keyHash: string
  readonly keyPrefix: string
  readonly keyLast4: string
  readonly quotaLimit: number | null
  readonly quotaWindowSeconds: number | null
  readonly createdAt: Date
  readonly revokedAt: Date | null
  readonly expiresAt: Date | null
  readonly scopes: ReadonlyArray<KeyScope>
  readonly organizationId: string | null
}

const COLUMNS = `id::text AS "id", name, owner_wallet AS "ownerWallet", environment, key_hash AS "keyHash",
  key_prefix AS "keyPrefix", key_last4 AS "keyLast4", quota_limit AS "quotaLimit",
  quota_window_seconds AS "quotaWindowSeconds", created_at AS "createdAt", revoked_at AS "revokedAt",
  expires_at AS "expiresAt", scopes, organization_id::text AS "organizationId"`

const toRecord = (row: Row): PartnerKeyRecord => ({
  id: row.id,
  name: row.name,
  ownerWallet: row.ownerWallet,
  environment: row.environment,
  prefix: row.keyPrefix,
  last4: row.keyLast4,
  quotaLimit: row.quotaLimit,
  quotaWindowSeconds: row.quotaWindowSeconds,
  createdAt: row.createdAt,
  revokedAt: row.revokedAt,
  expiresAt: row.expiresAt,
  scopes: row.scopes,
  organizationId: row.organizationId
})

const storeError = (what: string) => (cause: unknown) =>
  new PartnerKeyStoreError({ message: `${what}: ${cause instanceof Error ? cause.message : String(cause)}`, cause })

export const PartnerKeysLive = Layer.effect(
  PartnerKeys,
  Effect.gen(function*() {
    const sql = yield* PgClient.PgClient
    const columns = sql.unsafe(COLUMNS)

    const insert = (input: IssueKey, key: string, rotatedFrom: string | null) =>
      sql<Row>`
        INSERT INTO partner_key (name, owner_wallet, environment, key_hash, key_prefix, key_last4,
                                 quota_limit, quota_window_seconds, rotated_from)
        VALUES (${input.name}, ${input.ownerWallet}, ${input.environment}, ${hashApiKey(key)},
                ${KEY_PREFIXES[input.environment]}, ${key.slice(-4)}, ${input.quotaLimit ?? null},
                ${input.quotaWindowSeconds ?? null}, ${rotatedFrom})
        ON CONFLICT (key_hash) DO UPDATE SET name = partner_key.name
        RETURNING ${columns}`.pipe(Effect.map((rows) => rows[0]!))

    const issueWith = (input: IssueKey, key: string, rotatedFrom: string | null) =>
      insert(input, key, rotatedFrom).pipe(Effect.map((row) => ({ record: toRecord(row), key: Redacted.make(key) })))

    const active = (id: string) =>
      UUID.test(id)
        ? sql<Row>`SELECT ${columns} FROM partner_key
                   WHERE id = ${id}::uuid AND revoked_at IS NULL AND (expires_at IS NULL OR expires_at > now())
                   FOR UPDATE`.pipe(
            Effect.flatMap((rows) => rows[0] === undefined ? Effect.fail(new PartnerKeyNotFound({ id })) : Effect.succeed(rows[0]))
          )
        : Effect.fail(new PartnerKeyNotFound({ id }))

    // NOTIFY inside the transaction is delivered on commit, so listeners never see it early.
    const announce = (hash: string) => sql`SELECT pg_notify(${PARTNER_KEY_CHANNEL}, ${hash})`

    return {
      issue: (input) =>
        issueWith(input, generateApiKey(input.environment), null).pipe(
          Effect.mapError(storeError("issuing a partner key")),
          Effect.withSpan("PartnerKeys.issue")
        ),
      ensure: (input, key) =>
        insert(input, Redacted.value(key), null).pipe(
          Effect.tap((row) => announce(row.keyHash)),
          Effect.map(toRecord),
          sql.withTransaction,
          Effect.mapError(storeError("storing the configured partner key")),
          Effect.withSpan("PartnerKeys.ensure")
        ),
      list: sql<Row>`SELECT ${columns} FROM partner_key ORDER BY created_at, id`.pipe(
        Effect.map((rows) => rows.map(toRecord)),
        Effect.mapError(storeError("listing partner keys")),
        Effect.withSpan("PartnerKeys.list")
      ),
      revoke: (id) =>
        active(id).pipe(
          Effect.flatMap(() => sql<Row>`UPDATE partner_key SET revoked_at = now() WHERE id = ${id}::uuid RETURNING ${columns}`),
          Effect.tap((rows) => announce(rows[0]!.keyHash)),
          Effect.map((rows) => toRecord(rows[0]!)),
          sql.withTransaction,
          Effect.catchTag("SqlError", storeError("revoking a partner key")),
          Effect.withSpan("PartnerKeys.revoke")
        ),
      rotate: (id) =>
        active(id).pipe(
          Effect.flatMap((old) =>
            Effect.all({
              previous: sql<Row>`
                UPDATE partner_key
                SET expires_at = LEAST(COALESCE(expires_at, 'infinity'), now() + make_interval(secs => ${ROTATION_GRACE_SECONDS}))
                WHERE id = ${id}::uuid RETURNING ${columns}`.pipe(Effect.map((rows) => toRecord(rows[0]!))),
              issued: issueWith(
                {
                  name: old.name,
                  ownerWallet: old.ownerWallet,
                  environment: old.environment,
                  quotaLimit: old.quotaLimit,
                  quotaWindowSeconds: old.quotaWindowSeconds
                },
                generateApiKey(old.environment),
                id
              ).pipe(
                // the replacement keeps the organization and scopes of the key it replaces
                Effect.tap((issued) =>
                  sql`UPDATE partner_key SET organization_id = ${old.organizationId}::uuid,
                             scopes = ${`{${old.scopes.join(",")}}`}::text[]
                      WHERE id = ${issued.record.id}::uuid`
                ),
                Effect.map((issued) => ({ ...issued, record: { ...issued.record, scopes: old.scopes, organizationId: old.organizationId } }))
              ),
              _: announce(old.keyHash)
            })
          ),
          Effect.map(({ issued, previous }) => ({ ...issued, previous })),
          sql.withTransaction,
          Effect.catchTag("SqlError", storeError("rotating a partner key")),
          Effect.withSpan("PartnerKeys.rotate")
        ),
      findByHash: (hash) =>
        sql<Row>`SELECT ${columns} FROM partner_key WHERE key_hash = ${hash}`.pipe(
          Effect.map((rows) => Option.map(Option.fromNullable(rows[0]), toRecord)),
          Effect.mapError(storeError("looking up a partner key")),
          Effect.withSpan("PartnerKeys.findByHash")
        ),
      invalidations: Stream.unwrap(
        Effect.sync(() => {
          // LISTEN takes effect some time after the stream starts, and a dead listen connection
          // ends nothing (sql-pg swallows its errors): our own token coming back proves the
          // listener live, first to emit `Listening`, then as a heartbeat; without it, the stream
          // fails and the consumer listens again.
          const token = `${LISTENING_TOKEN}${randomUUID()}`
          let seenAt: number | undefined
          const heartbeat = Effect.gen(function*() {
            while (true) {
              yield* announce(token)
              yield* Effect.sleep(seenAt === undefined ? "100 millis" : HEARTBEAT)
              if (seenAt !== undefined && Date.now() - seenAt > HEARTBEAT_DEADLINE_MS) {
                return yield* Effect.fail(new Error(`no heartbeat on ${PARTNER_KEY_CHANNEL} for ${HEARTBEAT_DEADLINE_MS} ms`))
              }
            }
          })
          return sql.listen(PARTNER_KEY_CHANNEL).pipe(
            Stream.merge(Stream.drain(Stream.fromEffect(heartbeat))),
            Stream.filterMap((payload): Option.Option<Invalidation> => {
              if (payload === token) {
                const first = seenAt === undefined
                seenAt = Date.now()
                return first ? Option.some({ _tag: "Listening" }) : Option.none()
              }
              return payload.startsWith(LISTENING_TOKEN) ? Option.none() : Option.some({ _tag: "Changed", hash: payload })
            })
          )
        })
      ).pipe(Stream.mapError(storeError("listening for partner key changes")))
    }
  })
)
