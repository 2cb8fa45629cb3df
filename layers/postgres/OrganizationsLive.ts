import { SqlClient, type SqlError } from "@effect/sql"
import { Effect, Layer, Redacted } from "effect"
import {
  type Actor,
  type AuditEntry,
  CodeTaken,
  type NewOrganizationKey,
  type Organization,
  type OrganizationCode,
  OrganizationCodeNotFound,
  type OrganizationKey,
  OrganizationKeyNotFound,
  OrganizationLimitReached,
  Organizations,
  WalletOwnsOrganization
} from "../../services/Organizations.ts"
import { ROTATION_GRACE_SECONDS } from "../../services/PartnerKeys.ts"
import { MAX_ACTIVE_KEYS_PER_ORGANIZATION, MAX_CODES_PER_ORGANIZATION } from "../../src/domain/controlPlane/codeName.ts"
import { generateApiKey, hashApiKey, KEY_PREFIXES } from "../../src/domain/partnerKeys/apiKeyFormat.ts"
import { PARTNER_KEY_CHANNEL } from "./PartnerKeysLive.ts"

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i

const ORG_COLUMNS = `id::text AS "id", owner_wallet AS "ownerWallet", created_at AS "createdAt"`
const KEY_COLUMNS = `id::text AS "id", name, environment, key_prefix AS "prefix", key_last4 AS "last4", scopes,
  quota_limit AS "quotaLimit", quota_window_seconds AS "quotaWindowSeconds", created_at AS "createdAt",
  last_used_at AS "lastUsedAt", expires_at AS "expiresAt", revoked_at AS "revokedAt", key_hash AS "keyHash"`
const CODE_COLUMNS = `code, enabled, referrer_wallet AS "referrer", created_at AS "createdAt", updated_at AS "updatedAt"`
const ACTIVE = `revoked_at IS NULL AND (expires_at IS NULL OR expires_at > now())`

type KeyRow = OrganizationKey & { readonly keyHash: string }

const toKey = ({ keyHash: _, ...key }: KeyRow): OrganizationKey => key

const scopeArray = (scopes: ReadonlyArray<string>) => `{${scopes.join(",")}}`

/** Organizations, their keys and codes, and the audit log, in Postgres (sql/0012). */
export const OrganizationsLive = Layer.effect(
  Organizations,
  Effect.gen(function*() {
    const sql = yield* SqlClient.SqlClient
    const orgColumns = sql.unsafe(ORG_COLUMNS)
    const keyColumns = sql.unsafe(KEY_COLUMNS)
    const codeColumns = sql.unsafe(CODE_COLUMNS)
    const active = sql.unsafe(ACTIVE)

    const audit = (actor: Actor, action: string, details: Record<string, unknown>) =>
      sql`INSERT INTO audit_log (organization_id, wallet, action, details)
          VALUES (${actor.organizationId}::uuid, ${actor.wallet}, ${action}, ${JSON.stringify(details)}::jsonb)`
    // delivered on commit: every instance's key cache drops the record
    const announce = (hash: string) => sql`SELECT pg_notify(${PARTNER_KEY_CHANNEL}, ${hash})`
    // serialises the key and code changes of one organization (Generate, limits)
    const lockOrganization = (id: string) => sql`SELECT id FROM organization WHERE id = ${id}::uuid FOR UPDATE`

    // locks the organization, then refuses when `count` (rows it holds) reached `max`
    const lockedUnder = (actor: Actor, count: Effect.Effect<ReadonlyArray<any>, SqlError.SqlError>, max: number, what: string) =>
      Effect.zipRight(
        lockOrganization(actor.organizationId),
        Effect.flatMap(count, (rows) =>
          (rows[0] as { n: number }).n >= max
            ? Effect.fail(new OrganizationLimitReached({ message: `an organization holds at most ${max} ${what}` }))
            : Effect.void)
      )

    const insertKey = (actor: Actor, key: NewOrganizationKey, quota: { limit: number | null; window: number | null }, rotatedFrom: string | null) => {
      const plaintext = generateApiKey(key.environment)
      return sql<KeyRow>`
        INSERT INTO partner_key (name, owner_wallet, environment, key_hash, key_prefix, key_last4, quota_limit,
                                 quota_window_seconds, rotated_from, organization_id, scopes)
        SELECT ${key.name}, owner_wallet, ${key.environment}, ${hashApiKey(plaintext)}, ${KEY_PREFIXES[key.environment]},
               ${plaintext.slice(-4)}, ${quota.limit}, ${quota.window}, ${rotatedFrom}::uuid, id, ${scopeArray(key.scopes)}::text[]
        FROM organization WHERE id = ${actor.organizationId}::uuid
        RETURNING ${keyColumns}`.pipe(Effect.map((rows) => ({ key: toKey(rows[0]!), plaintext: Redacted.make(plaintext) })))
    }

    const keyOf = (actor: Actor, id: string) =>
      UUID.test(id)
        ? sql<KeyRow>`
            SELECT ${keyColumns} FROM partner_key
            WHERE id = ${id}::uuid AND organization_id = ${actor.organizationId}::uuid AND ${active} FOR UPDATE`.pipe(
            Effect.flatMap((rows) => (rows[0] === undefined ? Effect.fail(new OrganizationKeyNotFound({ id })) : Effect.succeed(rows[0])))
          )
        : Effect.fail(new OrganizationKeyNotFound({ id }))

    const codeOf = (organizationId: string, code: string) =>
      sql<OrganizationCode>`
        SELECT ${codeColumns} FROM builder_code
        WHERE lower(code) = lower(${code}) AND organization_id = ${organizationId}::uuid`

    const keyDetails = (key: OrganizationKey) => ({ keyId: key.id, name: key.name, last4: key.last4, scopes: key.scopes })

    return Organizations.of({
      ensureOwned: (wallet) =>
        Effect.gen(function*() {
          const inserted = yield* sql<Organization>`
            INSERT INTO organization (owner_wallet) VALUES (${wallet})
            ON CONFLICT (owner_wallet) DO NOTHING RETURNING ${orgColumns}`
          if (inserted[0] !== undefined) {
            yield* audit({ organizationId: inserted[0].id, wallet }, "organization.created", {})
            return { organization: inserted[0], created: true }
          }
          const rows = yield* sql<Organization>`SELECT ${orgColumns} FROM organization WHERE owner_wallet = ${wallet}`
          return { organization: rows[0]!, created: false }
        }).pipe(sql.withTransaction, Effect.orDie, Effect.withSpan("Organizations.ensureOwned")),

      ofOwner: (wallet) =>
        sql<Organization>`SELECT ${orgColumns} FROM organization WHERE owner_wallet = ${wallet}`.pipe(
          Effect.map((rows) => rows[0] ?? null),
          Effect.orDie,
          Effect.withSpan("Organizations.ofOwner")
        ),

      transferOwner: (actor, newOwner) =>
        Effect.gen(function*() {
          yield* lockOrganization(actor.organizationId)
          const other = yield* sql<{ id: string; used: boolean }>`
            SELECT o.id::text AS "id",
                   EXISTS (SELECT 1 FROM partner_key k WHERE k.organization_id = o.id)
                   OR EXISTS (SELECT 1 FROM builder_code c WHERE c.organization_id = o.id) AS "used"
            FROM organization o WHERE o.owner_wallet = ${newOwner} AND o.id <> ${actor.organizationId}::uuid FOR UPDATE`
          if (other[0] !== undefined) {
            if (other[0].used) return yield* Effect.fail(new WalletOwnsOrganization({ wallet: newOwner }))
            yield* sql`DELETE FROM organization WHERE id = ${other[0].id}::uuid`
          }
          const rows = yield* sql<Organization>`
            UPDATE organization SET owner_wallet = ${newOwner}, updated_at = now()
            WHERE id = ${actor.organizationId}::uuid RETURNING ${orgColumns}`
          yield* sql`UPDATE builder_code SET referrer_wallet = ${newOwner}, updated_at = now()
                     WHERE organization_id = ${actor.organizationId}::uuid`
          yield* sql`UPDATE partner_key SET owner_wallet = ${newOwner} WHERE organization_id = ${actor.organizationId}::uuid`
          const hashes = yield* sql<{ keyHash: string }>`
            SELECT key_hash AS "keyHash" FROM partner_key WHERE organization_id = ${actor.organizationId}::uuid AND ${active}`
          yield* Effect.forEach(hashes, ({ keyHash }) => announce(keyHash), { discard: true })
          // the previous owner's sessions end with its ownership
          yield* sql`UPDATE wallet_session SET ended_at = now() WHERE wallet = ${actor.wallet} AND ended_at IS NULL`
          yield* audit(actor, "organization.owner_transferred", { from: actor.wallet, to: newOwner })
          return rows[0]!
        }).pipe(sql.withTransaction, Effect.catchTag("SqlError", Effect.die), Effect.withSpan("Organizations.transferOwner")),

      keys: (organizationId) =>
        sql<KeyRow>`
          SELECT ${keyColumns} FROM partner_key WHERE organization_id = ${organizationId}::uuid
          ORDER BY created_at DESC, partner_key.id LIMIT 500`.pipe(
          Effect.map((rows) => rows.map(toKey)),
          Effect.orDie,
          Effect.withSpan("Organizations.keys")
        ),

      issueKey: (actor, key) =>
        Effect.gen(function*() {
          yield* lockedUnder(
            actor,
            sql`SELECT count(*)::int AS n FROM partner_key WHERE organization_id = ${actor.organizationId}::uuid AND ${active}`,
            MAX_ACTIVE_KEYS_PER_ORGANIZATION,
            "active keys; revoke one first"
          )
          const issued = yield* insertKey(actor, key, { limit: null, window: null }, null)
          yield* audit(actor, "key.issued", keyDetails(issued.key))
          return issued
        }).pipe(sql.withTransaction, Effect.catchTag("SqlError", Effect.die), Effect.withSpan("Organizations.issueKey")),

      generateKey: (actor, key) =>
        Effect.gen(function*() {
          yield* lockOrganization(actor.organizationId)
          const revoked = yield* sql<{ id: string; keyHash: string }>`
            UPDATE partner_key SET revoked_at = now()
            WHERE organization_id = ${actor.organizationId}::uuid AND ${active}
            RETURNING id::text AS "id", key_hash AS "keyHash"`
          yield* Effect.forEach(revoked, ({ keyHash }) => announce(keyHash), { discard: true })
          const issued = yield* insertKey(actor, key, { limit: null, window: null }, null)
          const ids = revoked.map((row) => row.id)
          yield* audit(actor, "key.generated", { ...keyDetails(issued.key), revoked: ids })
          return { ...issued, revoked: ids }
        }).pipe(sql.withTransaction, Effect.orDie, Effect.withSpan("Organizations.generateKey")),

      rotateKey: (actor, id) =>
        Effect.gen(function*() {
          // the organization first, like Generate: locking the key row first deadlocks against it
          yield* lockOrganization(actor.organizationId)
          const old = yield* keyOf(actor, id)
          const [previous] = yield* sql<KeyRow>`
            UPDATE partner_key
            SET expires_at = LEAST(COALESCE(expires_at, 'infinity'), now() + make_interval(secs => ${ROTATION_GRACE_SECONDS}))
            WHERE id = ${id}::uuid RETURNING ${keyColumns}`
          yield* announce(old.keyHash)
          const issued = yield* insertKey(
            actor,
            { name: old.name, scopes: old.scopes, environment: old.environment },
            { limit: old.quotaLimit, window: old.quotaWindowSeconds },
            id
          )
          yield* audit(actor, "key.rotated", { ...keyDetails(issued.key), previousKeyId: id })
          return { ...issued, previous: toKey(previous!) }
        }).pipe(sql.withTransaction, Effect.catchTag("SqlError", Effect.die), Effect.withSpan("Organizations.rotateKey")),

      revokeKey: (actor, id) =>
        Effect.gen(function*() {
          yield* lockOrganization(actor.organizationId)
          yield* keyOf(actor, id)
          const [row] = yield* sql<KeyRow>`UPDATE partner_key SET revoked_at = now() WHERE id = ${id}::uuid RETURNING ${keyColumns}`
          yield* announce(row!.keyHash)
          const key = toKey(row!)
          yield* audit(actor, "key.revoked", keyDetails(key))
          return key
        }).pipe(sql.withTransaction, Effect.catchTag("SqlError", Effect.die), Effect.withSpan("Organizations.revokeKey")),

      codes: (organizationId) =>
        sql<OrganizationCode>`
          SELECT ${codeColumns} FROM builder_code WHERE organization_id = ${organizationId}::uuid ORDER BY created_at, code`.pipe(
          Effect.orDie,
          Effect.withSpan("Organizations.codes")
        ),

      claimCode: (actor, code) =>
        Effect.gen(function*() {
          yield* lockedUnder(
            actor,
            sql`SELECT count(*)::int AS n FROM builder_code WHERE organization_id = ${actor.organizationId}::uuid`,
            MAX_CODES_PER_ORGANIZATION,
            "codes"
          )
          // a disabled code stays reserved: the conflict covers every row, whatever its state
          const rows = yield* sql<OrganizationCode>`
            INSERT INTO builder_code (code, referrer_wallet, organization_id)
            SELECT ${code}, owner_wallet, id FROM organization WHERE id = ${actor.organizationId}::uuid
            ON CONFLICT DO NOTHING RETURNING ${codeColumns}`
          if (rows[0] === undefined) return yield* Effect.fail(new CodeTaken({ code }))
          yield* audit(actor, "code.claimed", { code: rows[0].code })
          return rows[0]
        }).pipe(sql.withTransaction, Effect.catchTag("SqlError", Effect.die), Effect.withSpan("Organizations.claimCode")),

      setCodeEnabled: (actor, code, enabled) =>
        Effect.gen(function*() {
          const found = yield* codeOf(actor.organizationId, code)
          if (found[0] === undefined) return yield* Effect.fail(new OrganizationCodeNotFound({ code }))
          const [row] = yield* sql<OrganizationCode>`
            UPDATE builder_code SET enabled = ${enabled}, updated_at = now()
            WHERE lower(code) = lower(${code}) AND organization_id = ${actor.organizationId}::uuid RETURNING ${codeColumns}`
          yield* audit(actor, enabled ? "code.enabled" : "code.disabled", { code: row!.code })
          return row!
        }).pipe(sql.withTransaction, Effect.catchTag("SqlError", Effect.die), Effect.withSpan("Organizations.setCodeEnabled")),

      audit: (organizationId, page) =>
        sql<Omit<AuditEntry, "id"> & { id: string }>`
          SELECT id::text AS "id", wallet, action, details, created_at AS "createdAt" FROM audit_log
          WHERE organization_id = ${organizationId}::uuid
            AND (${page.before === null ? null : page.before.toString()}::bigint IS NULL
                 OR id < ${page.before === null ? null : page.before.toString()}::bigint)
          ORDER BY audit_log.id DESC LIMIT ${page.limit}`.pipe(Effect.orDie, Effect.withSpan("Organizations.audit")),

      record: (actor, action, details) =>
        audit(actor, action, details).pipe(Effect.asVoid, Effect.orDie, Effect.withSpan("Organizations.record"))
    })
  })
)
