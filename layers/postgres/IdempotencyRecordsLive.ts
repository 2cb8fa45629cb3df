import { SqlClient } from "@effect/sql"
import { Effect, Layer } from "effect"
import { type IdempotencyClaim, IdempotencyRecords } from "../../services/IdempotencyRecords.ts"

/** How long an answer is kept for retries. */
const KEEP = "24 hours"

/** Records in `idempotency_record` (sql/0012); old ones are swept when a new key is claimed. */
export const IdempotencyRecordsLive = Layer.effect(
  IdempotencyRecords,
  Effect.gen(function*() {
    const sql = yield* SqlClient.SqlClient
    const keep = sql.unsafe(`interval '${KEEP}'`)
    return IdempotencyRecords.of({
      claim: (organizationId, key, requestHash) =>
        Effect.gen(function*() {
          yield* sql`DELETE FROM idempotency_record WHERE created_at < now() - ${keep}`
          const inserted = yield* sql`
            INSERT INTO idempotency_record (organization_id, idempotency_key, request_hash)
            VALUES (${organizationId}::uuid, ${key}, ${requestHash})
            ON CONFLICT DO NOTHING RETURNING idempotency_key`
          if (inserted.length === 1) return { _tag: "Claimed" } as IdempotencyClaim
          const rows = yield* sql<{ requestHash: string; status: number | null; body: unknown }>`
            SELECT request_hash AS "requestHash", status, body FROM idempotency_record
            WHERE organization_id = ${organizationId}::uuid AND idempotency_key = ${key}`
          const row = rows[0]
          // released between the two statements: the caller may simply retry
          if (row === undefined) return { _tag: "InProgress" } as IdempotencyClaim
          if (row.requestHash !== requestHash) return { _tag: "Mismatch" } as IdempotencyClaim
          if (row.status === null) return { _tag: "InProgress" } as IdempotencyClaim
          return { _tag: "Answered", status: row.status, body: row.body } as IdempotencyClaim
        }).pipe(Effect.orDie, Effect.withSpan("IdempotencyRecords.claim")),
      answer: (organizationId, key, status, body) =>
        sql`
          UPDATE idempotency_record SET status = ${status}, body = ${JSON.stringify(body)}::jsonb
          WHERE organization_id = ${organizationId}::uuid AND idempotency_key = ${key}`.pipe(
          Effect.asVoid,
          Effect.orDie,
          Effect.withSpan("IdempotencyRecords.answer")
        ),
      release: (organizationId, key) =>
        sql`
          DELETE FROM idempotency_record
          WHERE organization_id = ${organizationId}::uuid AND idempotency_key = ${key} AND status IS NULL`.pipe(
          Effect.asVoid,
          Effect.orDie,
          Effect.withSpan("IdempotencyRecords.release")
        )
    })
  })
)
