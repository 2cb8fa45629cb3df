import fs from "node:fs"
import path from "node:path"
import { Effect, Layer, Option, Redacted } from "effect"
import type { RateLimiter } from "../../services/RateLimiter.ts"
import { environmentOfKey, generateApiKey } from "../domain/partnerKeys/apiKeyFormat.ts"
import { PartnerKeyLive } from "../../layers/memory/PartnerKeyLive.ts"
import { RateLimiterLive } from "../../layers/memory/RateLimiterLive.ts"
import { PartnerKeysLive } from "../../layers/postgres/PartnerKeysLive.ts"
import { KeyUsageLive } from "../../layers/postgres/KeyUsageLive.ts"
import { PartnerKeys } from "../../services/PartnerKeys.ts"
import type { Cluster } from "../config.ts"
import type { KeysConfig } from "../configKeys.ts"

/**
 * The `PartnerKey` middleware implementation as `serve` runs it: keys in Postgres, quotas counted by
 * the given limiter (in memory by default), usage counted in memory and flushed to Postgres
 * periodically. Needs the database (`SqlClient`/`PgClient`).
 */
export const PartnerAuthLive = <E = never, R = never>(
  cluster: Cluster,
  settings: KeysConfig,
  limiter: Layer.Layer<RateLimiter, E, R> = RateLimiterLive as Layer.Layer<RateLimiter, E, R>
) =>
  PartnerKeyLive({
    cluster,
    defaultQuota: { limit: settings.quotaLimit, windowSeconds: settings.quotaWindowSeconds }
  }).pipe(Layer.provide(Layer.mergeAll(PartnerKeysLive, limiter, KeyUsageLive())))

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
 * the server listens at once (`ServeBannerLive` prints it). Its owner wallet, a scenario builder,
 * is set once the chain is up (`SandboxCodesSeed`).
 */
export const SandboxPartnerKeyLive = (key: Redacted.Redacted<string>) =>
  Layer.scopedDiscard(
    Effect.gen(function*() {
      const keys = yield* PartnerKeys
      yield* keys.ensure({ name: "sandbox", ownerWallet: null, environment: "sandbox" }, key)
    }).pipe(
      Effect.catchAllCause((cause) => Effect.logError("could not seed the sandbox partner key", cause)),
      Effect.forkScoped
    )
  ).pipe(Layer.provide(PartnerKeysLive))
