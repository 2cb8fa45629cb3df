import fs from "node:fs"
import path from "node:path"
import { Effect, Layer, Option, Redacted } from "effect"
import type { RateLimiter } from "../../services/RateLimiter.ts"
import { environmentOfKey, generateApiKey } from "../domain/partnerKeys/apiKeyFormat.ts"
import { PartnerKeyLive } from "../../layers/memory/PartnerKeyLive.ts"
import { RateLimiterLive } from "../../layers/memory/RateLimiterLive.ts"
import { PartnerKeysLive } from "../../layers/postgres/PartnerKeysLive.ts"
import { PartnerKeys } from "../../services/PartnerKeys.ts"
import type { Cluster } from "../config.ts"
import type { KeysConfig } from "../configKeys.ts"

/**
 * The `PartnerKey` middleware implementation as `serve` runs it: keys in Postgres, quotas counted by
 * the given limiter (in memory by default), usage counted in memory. Needs the database
 * (`SqlClient`/`PgClient`) and `KeyUsage` (shared with the control plane, which reads the counts).
 */
export const PartnerAuthLive = <E = never, R = never>(
  cluster: Cluster,
  settings: KeysConfig,
  limiter: Layer.Layer<RateLimiter, E, R> = RateLimiterLive as Layer.Layer<RateLimiter, E, R>
) =>
  PartnerKeyLive({
    cluster,
    defaultQuota: { limit: settings.quotaLimit, windowSeconds: settings.quotaWindowSeconds }
  }).pipe(Layer.provide(Layer.mergeAll(PartnerKeysLive, limiter)))

const KEY_FILE = "sandbox-partner-key"

/**
 * The sandbox partner key: `SANDBOX_PARTNER_KEY`, else the one kept in `DATA_DIR`, else a new one
 * written there (readable by this user only), so every start prints and honours the same key.
 */
export const resolveSandboxPartnerKey = (configured: Option.Option<Redacted.Redacted<string>>, dataDir: string): Redacted.Redacted<string> => {
  if (Option.isSome(configured)) return configured.value
  const file = path.join(dataDir, KEY_FILE)
  if (fs.existsSync(file)) {
    const kept = fs.readFileSync(file, "utf8").trim()
    if (environmentOfKey(kept) === "sandbox") return Redacted.make(kept)
  }
  const key = generateApiKey("sandbox")
  fs.mkdirSync(dataDir, { recursive: true })
  fs.writeFileSync(file, key + "\n", { mode: 0o600 })
  return Redacted.make(key)
}

/**
 * On the sandbox: stores the sandbox partner key (the same at every start), in the background so
 * the server listens at once (`ServeBannerLive` prints it). A key revoked since is not revived. Its owner wallet, a scenario builder,
 * is set once the chain is up (`SandboxCodesSeed`).
 */
export const SandboxPartnerKeyLive = (key: Redacted.Redacted<string>) =>
  Layer.scopedDiscard(
    Effect.gen(function*() {
      const keys = yield* PartnerKeys
      const record = yield* keys.ensure({ name: "sandbox", ownerWallet: null, environment: "sandbox" }, key)
      if (record.revokedAt !== null || (record.expiresAt !== null && record.expiresAt.getTime() <= Date.now())) {
        yield* Effect.logWarning(
          "the sandbox partner key was revoked (or rotated away) and stays refused; for a new one, delete " +
            `${KEY_FILE} in DATA_DIR or set SANDBOX_PARTNER_KEY`
        )
      }
    }).pipe(
      Effect.catchAllCause((cause) => Effect.logError("could not seed the sandbox partner key", cause)),
      Effect.forkScoped
    )
  ).pipe(Layer.provide(PartnerKeysLive))
