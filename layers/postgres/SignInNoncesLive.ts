import { SqlClient } from "@effect/sql"
import { Effect, Layer } from "effect"
import { SignInNonces, type StoredNonce } from "../../services/SignInNonces.ts"
import type { SignInInput } from "../../src/domain/controlPlane/signIn.ts"

interface Row {
  readonly nonce: string
  readonly purpose: StoredNonce["purpose"]
  readonly organizationId: string | null
  readonly input: SignInInput
  readonly expiresAt: Date
  readonly usedAt: Date | null
}

/** Nonces in `siws_nonce` (sql/0012); expired ones are swept when new ones are stored. */
export const SignInNoncesLive = Layer.effect(
  SignInNonces,
  Effect.gen(function*() {
    const sql = yield* SqlClient.SqlClient
    return SignInNonces.of({
      store: (nonce) =>
        sql`
          WITH swept AS (DELETE FROM siws_nonce WHERE expires_at < now() - interval '1 day')
          INSERT INTO siws_nonce (nonce, purpose, organization_id, input, expires_at)
          VALUES (${nonce.nonce}, ${nonce.purpose}, ${nonce.organizationId}::uuid, ${JSON.stringify(nonce.input)}::jsonb,
                  ${nonce.expiresAt})`.pipe(Effect.asVoid, Effect.orDie, Effect.withSpan("SignInNonces.store")),
      find: (nonce) =>
        sql<Row>`
          SELECT nonce, purpose, organization_id::text AS "organizationId", input, expires_at AS "expiresAt",
                 used_at AS "usedAt"
          FROM siws_nonce WHERE nonce = ${nonce}`.pipe(
          Effect.map((rows) => rows[0] ?? null),
          Effect.orDie,
          Effect.withSpan("SignInNonces.find")
        ),
      consume: (nonce) =>
        sql`
          UPDATE siws_nonce SET used_at = now()
          WHERE nonce = ${nonce} AND used_at IS NULL AND expires_at > now() RETURNING nonce`.pipe(
          Effect.map((rows) => rows.length === 1),
          Effect.orDie,
          Effect.withSpan("SignInNonces.consume")
        )
    })
  })
)
