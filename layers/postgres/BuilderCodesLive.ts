import { SqlClient } from "@effect/sql"
import type { Address } from "@solana/kit"
import { Effect, Layer } from "effect"
import { BuilderCodes } from "../../services/BuilderCodes.ts"
import { isBuilderCode } from "../../src/domain/builderCode.ts"

/** Codes in `builder_code` (sql/0006). A store failure is a defect: the route answers 500 and logs it. */
export const BuilderCodesLive = Layer.effect(
  BuilderCodes,
  Effect.gen(function*() {
    const sql = yield* SqlClient.SqlClient
    return BuilderCodes.of({
      // A string that cannot be a code names none; PostgreSQL would also refuse some (a NUL byte).
      resolve: (code) =>
        !isBuilderCode(code) ? Effect.succeed(null) : sql<{ code: string; referrer: string }>`
          SELECT code, referrer_wallet AS referrer FROM builder_code
          WHERE lower(code) = lower(${code}) AND enabled`.pipe(
          Effect.map((rows) => (rows[0] === undefined ? null : { code: rows[0].code, referrer: rows[0].referrer as Address })),
          Effect.orDie,
          Effect.withSpan("BuilderCodes.resolve")
        ),
      set: (code, referrer) =>
        sql`
          INSERT INTO builder_code (code, referrer_wallet) VALUES (${code}, ${referrer})
          ON CONFLICT ((lower(code))) DO UPDATE
            SET referrer_wallet = EXCLUDED.referrer_wallet, enabled = true, updated_at = now()`.pipe(
          Effect.asVoid,
          Effect.orDie,
          Effect.withSpan("BuilderCodes.set")
        ),
      disable: (code) =>
        sql<{ code: string }>`
          UPDATE builder_code SET enabled = false, updated_at = now()
          WHERE lower(code) = lower(${code}) RETURNING code`.pipe(
          Effect.map((rows) => rows.length > 0),
          Effect.orDie,
          Effect.withSpan("BuilderCodes.disable")
        )
    })
  })
)
