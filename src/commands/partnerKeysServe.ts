import { Effect, Layer, Option, Redacted } from "effect"
import { PartnerKeyLive } from "../../layers/memory/PartnerKeyLive.ts"
import { RateLimiterLive } from "../../layers/memory/RateLimiterLive.ts"
import { PartnerKeysLive } from "../../layers/postgres/PartnerKeysLive.ts"
import { KeyUsageLive } from "../../layers/postgres/KeyUsageLive.ts"
import { PartnerKeys } from "../../services/PartnerKeys.ts"
import type { Cluster } from "../config.ts"
import type { KeysConfig } from "../configKeys.ts"

/**
 * The `PartnerKey` middleware implementation as `serve` runs it: keys in Postgres, quotas and usage
 * counted in memory (usage flushed to Postgres periodically). Needs the database (`SqlClient`/`PgClient`).
 */
export const PartnerAuthLive = (cluster: Cluster, settings: KeysConfig) =>
  PartnerKeyLive({
    cluster,
    defaultQuota: { limit: settings.quotaLimit, windowSeconds: settings.quotaWindowSeconds }
  }).pipe(Layer.provide(Layer.mergeAll(PartnerKeysLive, RateLimiterLive, KeyUsageLive())))

/**
 * On the sandbox: stores `SANDBOX_PARTNER_KEY` (or a new key) and prints it next to the URLs, in
 * the background so the server listens at once. Printed on stdout for the developer, never through
 * the logger.
 */
export const SandboxPartnerKeyLive = (settings: KeysConfig) =>
  Layer.scopedDiscard(
    Effect.gen(function*() {
      const keys = yield* PartnerKeys
      const input = { name: "sandbox", ownerWallet: null, environment: "sandbox" as const }
      const key = yield* Option.match(settings.sandboxPartnerKey, {
        onSome: (key) => Effect.as(keys.ensure(input, key), key),
        onNone: () => Effect.map(keys.issue(input), (issued) => issued.key)
      })
      yield* Effect.sync(() =>
        process.stdout.write(
          `sandbox partner key: ${Redacted.value(key)}\n` +
            `  send it as x-api-key: <key> or Authorization: Bearer <key>\n`
        )
      )
    }).pipe(
      Effect.catchAllCause((cause) => Effect.logError("could not seed the sandbox partner key", cause)),
      Effect.forkScoped
    )
  ).pipe(Layer.provide(PartnerKeysLive))
