import { Effect, Exit, Layer, Option } from "effect"
import { PartnerKeys, type PartnerKeyRecord } from "../../services/PartnerKeys.ts"
import { type Quota, RateLimiter, type RateLimitDecision } from "../../services/RateLimiter.ts"
import { Forbidden, RateLimited, Unauthorized } from "../../src/api/errors.ts"
import type { RequestInfo } from "../../src/api/handlers.ts"
import { HeaderLines } from "../../src/api/headerLines.ts"
import { implementMiddleware, type MiddlewarePass } from "../../src/api/middleware.ts"
import { PartnerKey } from "../../src/api/security/PartnerKey.ts"
import type { Cluster } from "../../src/config.ts"
import { environmentOfKey, hashApiKey, KEY_PREFIXES } from "../../src/domain/partnerKeys/apiKeyFormat.ts"
import { KEY_SCOPES, type KeyScope, scopeForPath } from "../../src/domain/partnerKeys/scopes.ts"
import { KeyUsage } from "../../services/KeyUsage.ts"
import { makeKeyRecordCache } from "./keyRecordCache.ts"
import { KnownKeyHashes } from "./knownKeyHashes.ts"

export interface PartnerKeyOptions {
  /** The environment this server serves; keys of another one get 403 `WRONG_ENVIRONMENT`. */
  readonly cluster: Cluster
  /** For keys without their own quota. */
  readonly defaultQuota: Quota
  readonly cacheTtlMs?: number
  readonly negativeCacheTtlMs?: number
}

type Pass = MiddlewarePass<typeof PartnerKey>

const BEARER = /^bearer\s+(\S+)\s*$/i

/** The key from `x-api-key` or `Authorization: Bearer`; undefined when neither is there. */
export const presentedKey = (request: RequestInfo): string | undefined => {
  const direct = request.header("x-api-key")?.trim()
  if (direct !== undefined && direct !== "") return direct
  const authorization = request.header("authorization")
  return authorization === undefined ? undefined : BEARER.exec(authorization)?.[1]
}

const environmentName = (cluster: Cluster) => `${cluster} (${KEY_PREFIXES[cluster]})`

const missing = new Unauthorized({
  code: "UNAUTHORIZED",
  message: "an API key is required: send it as x-api-key: <key> or Authorization: Bearer <key>"
})
const unknown = new Unauthorized({ code: "UNAUTHORIZED", message: "unknown, revoked or expired API key" })

const isUsable = (record: PartnerKeyRecord | null, cluster: Cluster, now: number): record is PartnerKeyRecord =>
  record !== null && record.revokedAt === null && record.environment === cluster &&
  (record.expiresAt === null || record.expiresAt.getTime() > now)

/**
 * The `X-RateLimit-*` headers of a key's answers. Limit and reset stay the same for a whole window,
 * so their lines are joined with the key and made again only when they change: per request, only
 * `remaining` is added between them.
 */
class RateLimitHeaders {
  #lines: ((remaining: number) => HeaderLines) | undefined
  #limit = Number.NaN
  #reset = Number.NaN

  of(decision: RateLimitDecision): HeaderLines {
    if (this.#lines === undefined || decision.limit !== this.#limit || decision.reset !== this.#reset) {
      this.#limit = decision.limit
      this.#reset = decision.reset
      this.#lines = HeaderLines.numbered(
        HeaderLines.of([["x-ratelimit-limit", String(decision.limit)]]),
        "x-ratelimit-remaining",
        HeaderLines.of([["x-ratelimit-reset", String(decision.reset)]])
      )
    }
    return this.#lines(decision.remaining)
  }
}

const overQuota = (decision: RateLimitDecision, quota: Quota) =>
  new RateLimited({
    code: "RATE_LIMITED",
    message: `quota of ${decision.limit} requests per ${quota.windowSeconds} s exceeded; retry after ${decision.retryAfterSeconds} s`,
    limit: decision.limit,
    remaining: 0,
    reset: decision.reset,
    retryAfterSeconds: decision.retryAfterSeconds
  })

type Outcome = Exit.Exit<Pass, Unauthorized | Forbidden | RateLimited>

const missingScope = new Map(
  KEY_SCOPES.map((scope) => [
    scope,
    new Forbidden({ code: "INSUFFICIENT_SCOPE", message: `this API key lacks the '${scope}' scope this route needs` })
  ])
)

interface MeteredKey {
  readonly id: string
  readonly scopes: ReadonlySet<KeyScope> | undefined
  readonly bucket: string
  readonly quota: Quota
  readonly partner: Pass["provides"]
  readonly rateLimitHeaders: RateLimitHeaders
}

/**
 * The `PartnerKey` middleware: authenticates the key through an in-memory record cache (Postgres
 * only on a miss; revocations arrive by NOTIFY, and the TTL bounds staleness if one is missed),
 * then counts the request against the key's quota. With the record in memory and a limiter that
 * answers at once (the in-memory one) it decides synchronously and returns an `Exit`, so the
 * transport runs no fiber for it; otherwise it is an effect (Postgres read, remote limiter).
 */
export const PartnerKeyLive = (options: PartnerKeyOptions) =>
  Layer.unwrapScoped(
    Effect.gen(function*() {
      const keys = yield* PartnerKeys
      const limiter = yield* RateLimiter
      const cache = yield* makeKeyRecordCache(
        (hash) => keys.findByHash(hash).pipe(Effect.map(Option.getOrNull), Effect.orDie),
        keys.invalidations,
        { ttlMs: options.cacheTtlMs ?? 15_000, negativeTtlMs: options.negativeCacheTtlMs ?? 5_000 }
      )
      const { cluster, defaultQuota } = options
      const hashes = new KnownKeyHashes()
      // counts each request per key in memory (served without one in tests of the middleware alone)
      const usage = Option.getOrUndefined(yield* Effect.serviceOption(KeyUsage))

      // What a request needs of its key record, made once per record the cache holds.
      const metered = new WeakMap<PartnerKeyRecord, MeteredKey>()
      const meteredKey = (record: PartnerKeyRecord): MeteredKey => {
        let key = metered.get(record)
        if (key === undefined) {
          key = {
            id: record.id,
            scopes: record.scopes === undefined ? undefined : new Set(record.scopes),
            bucket: `key:${record.id}`,
            quota: {
              limit: record.quotaLimit ?? defaultQuota.limit,
              windowSeconds: record.quotaWindowSeconds ?? defaultQuota.windowSeconds
            },
            partner: { keyId: record.id, name: record.name, ownerWallet: record.ownerWallet, environment: record.environment },
            rateLimitHeaders: new RateLimitHeaders()
          }
          metered.set(record, key)
        }
        return key
      }
      const decided = (key: MeteredKey, decision: RateLimitDecision): Outcome =>
        decision.allowed
          ? Exit.succeed({ provides: key.partner, headers: key.rateLimitHeaders.of(decision) })
          : Exit.fail(overQuota(decision, key.quota))
      /** `now`: Date.now(), read once per request (a clock read is a system call on some VMs). */
      const meter = (record: PartnerKeyRecord | null, path: string, now: number): Outcome | Effect.Effect<Pass, Unauthorized | Forbidden | RateLimited> => {
        if (!isUsable(record, cluster, now)) return Exit.fail(unknown)
        const key = meteredKey(record)
        if (key.scopes !== undefined) {
          const needed = scopeForPath(path)
          if (!key.scopes.has(needed)) return Exit.fail(missingScope.get(needed)!)
        }
        usage?.record(key.id, now)
        const decision = limiter.consumeNow(key.bucket, key.quota, now)
        if (decision !== undefined) return decided(key, decision)
        return Effect.flatMap(limiter.consume(key.bucket, key.quota), (decision) => decided(key, decision))
      }

      return implementMiddleware(PartnerKey, (request) => {
        const key = presentedKey(request)
        if (key === undefined) return Exit.fail(missing)
        const environment = environmentOfKey(key)
        if (environment === undefined) return Exit.fail(unknown)
        if (environment !== cluster) {
          return Exit.fail(
            new Forbidden({
              code: "WRONG_ENVIRONMENT",
              message: `the API key is for the ${environmentName(environment)} environment; this server serves ${environmentName(cluster)}`
            })
          )
        }
        const remembered = hashes.remembered(key)
        const hash = remembered ?? hashApiKey(key)
        const now = Date.now()
        const cached = cache.peek(hash, now)
        if (cached === undefined) return Effect.flatMap(cache.lookup(hash), (record) => meter(record, request.path, Date.now()))
        if (remembered === undefined && cached !== null) hashes.remember(key, hash)
        return meter(cached, request.path, now)
      })
    })
  )
