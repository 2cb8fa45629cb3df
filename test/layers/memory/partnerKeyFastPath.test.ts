import { describe, expect, it } from "@effect/vitest"
import { Effect, Layer } from "effect"
import { RateLimiterLive } from "../../../layers/memory/RateLimiterLive.ts"
import { generateApiKey } from "../../../src/domain/partnerKeys/apiKeyFormat.ts"
import { fetchJson } from "../../support/httpFetch.ts"
import { startKeyedServer } from "../../support/keyedTestServer.ts"
import { makePartnerKeysInMemory } from "../../../src/bench/support/partnerKeysInMemory.ts"

/**
 * The real `PartnerKey` middleware over an in-memory key store: the first request of a key misses
 * the record cache and goes through the store (an effect), the next ones are decided synchronously
 * from memory. Both paths must answer alike.
 */

const DEFAULT_QUOTA = { limit: 1000, windowSeconds: 600 }

const server = (options: { readonly cacheTtlMs?: number } = {}) =>
  Effect.gen(function*() {
    const { layer, store } = yield* makePartnerKeysInMemory
    const url = yield* startKeyedServer({ cluster: "sandbox", defaultQuota: DEFAULT_QUOTA, ...options }).pipe(
      Effect.provide(Layer.merge(layer, RateLimiterLive))
    )
    const whoami = (key?: string) => fetchJson(`${url}/v2/whoami`, { headers: key === undefined ? {} : { "x-api-key": key } })
    // Nothing is cached until the invalidation listener is live: wait for a key to be served from memory.
    const probe = store.issue().key
    for (let i = 0; ; i++) {
      const before = store.lookups()
      yield* whoami(probe)
      if (store.lookups() === before) break
      if (i === 100) return yield* Effect.die(new Error("the key cache never went live"))
      yield* Effect.sleep("10 millis")
    }
    const baseline = store.lookups()
    return { store: { ...store, lookups: () => store.lookups() - baseline }, whoami }
  })

const rateLimitHeaders = (headers: Headers) => ({
  limit: headers.get("x-ratelimit-limit"),
  remaining: headers.get("x-ratelimit-remaining"),
  reset: headers.get("x-ratelimit-reset")
})

describe("PartnerKey middleware: cached records decided synchronously", () => {
  it.scopedLive("a cache miss and the cached hits that follow answer alike: partner, X-RateLimit-*, X-Request-Id; one store lookup", () =>
    Effect.gen(function*() {
      const { store, whoami } = yield* server()
      const { id, key } = store.issue({ name: "acme" })
      const answers = []
      for (let i = 0; i < 4; i++) answers.push(yield* whoami(key))
      expect(store.lookups()).toBe(1)
      for (const answer of answers) {
        expect(answer.status).toBe(200)
        expect(answer.body).toEqual({ keyId: id, name: "acme", ownerWallet: null, environment: "sandbox" })
        expect(answer.headers.get("x-request-id")).toMatch(/\S/)
      }
      expect(answers.map((answer) => rateLimitHeaders(answer.headers).remaining)).toEqual(["999", "998", "997", "996"])
      const resets = new Set(answers.map((answer) => rateLimitHeaders(answer.headers).reset))
      expect(resets.size).toBe(1)
      expect(Number([...resets][0]) % 600).toBe(0)
    }))

  it.scopedLive("the next quota window's answers carry its own X-RateLimit-Reset and count from the limit again", () =>
    Effect.gen(function*() {
      const { store, whoami } = yield* server()
      const { key } = store.issue({ quotaLimit: 5, quotaWindowSeconds: 1 })
      const first = rateLimitHeaders((yield* whoami(key)).headers)
      // Wait into a later one-second window.
      yield* Effect.sleep(`${Number(first.reset) * 1000 - Date.now() + 50} millis`)
      const later = [rateLimitHeaders((yield* whoami(key)).headers), rateLimitHeaders((yield* whoami(key)).headers)]
      expect(first).toEqual({ limit: "5", remaining: "4", reset: first.reset })
      expect(Number(later[0]!.reset)).toBeGreaterThan(Number(first.reset))
      expect(later[0]!.remaining).toBe("4")
      // Within one window the lines are reused with only the count changing.
      expect(later[1]).toEqual({ limit: "5", remaining: "3", reset: later[0]!.reset })
    }))

  it.scopedLive("quota exhausted mid-stream of cached hits: 429 RATE_LIMITED with Retry-After and X-RateLimit-*, then still 429", () =>
    Effect.gen(function*() {
      const { store, whoami } = yield* server()
      const { key } = store.issue({ quotaLimit: 3, quotaWindowSeconds: 3600 })
      const statuses = []
      for (let i = 0; i < 5; i++) statuses.push(yield* whoami(key))
      expect(statuses.map((answer) => answer.status)).toEqual([200, 200, 200, 429, 429])
      expect(store.lookups()).toBe(1)
      const limited = statuses[3]!
      expect(limited.body).toMatchObject({ success: false, error: "RATE_LIMITED", limit: 3, remaining: 0 })
      expect(rateLimitHeaders(limited.headers)).toEqual({ limit: "3", remaining: "0", reset: String(limited.body.reset) })
      const retryAfter = Number(limited.headers.get("retry-after"))
      expect(retryAfter).toBeGreaterThanOrEqual(1)
      expect(retryAfter).toBeLessThanOrEqual(3600)
      expect(limited.headers.get("x-request-id")).toMatch(/\S/)
      // Another key of the same store keeps its own count.
      expect((yield* whoami(store.issue({ quotaLimit: 3 }).key)).status).toBe(200)
    }))

  it.scopedLive("a revoked key is refused on its next request once NOTIFY arrives, though its record was cached", () =>
    Effect.gen(function*() {
      const { store, whoami } = yield* server({ cacheTtlMs: 60_000 })
      const { id, key } = store.issue()
      expect((yield* whoami(key)).status).toBe(200)
      expect((yield* whoami(key)).status).toBe(200)
      expect(store.lookups()).toBe(1)
      store.revoke(id)
      // The invalidation travels through a stream fiber: give it a turn.
      yield* Effect.sleep("20 millis")
      const refused = yield* whoami(key)
      expect(refused.status).toBe(401)
      expect(refused.body).toMatchObject({ success: false, error: "UNAUTHORIZED" })
      expect(refused.headers.get("x-ratelimit-limit")).toBeNull()
      expect(refused.headers.get("www-authenticate")).toBe('Bearer realm="vault-gateway"')
    }))

  it.scopedLive("without NOTIFY, a revoked key is refused once its cached record expires (the TTL bound)", () =>
    Effect.gen(function*() {
      const { store, whoami } = yield* server({ cacheTtlMs: 300 })
      const { id, key } = store.issue()
      expect((yield* whoami(key)).status).toBe(200)
      store.revoke(id, { notify: false })
      expect((yield* whoami(key)).status).toBe(200)
      yield* Effect.sleep("350 millis")
      expect((yield* whoami(key)).status).toBe(401)
    }))

  it.scopedLive("refusals decided at once: 401 without or with an unknown key (remembered, one lookup), 403 for another environment", () =>
    Effect.gen(function*() {
      const { store, whoami } = yield* server()
      const missing = yield* whoami()
      expect(missing.status).toBe(401)
      expect(missing.body.message).toMatch(/x-api-key/)
      expect(missing.headers.get("www-authenticate")).toBe('Bearer realm="vault-gateway"')
      const stranger = generateApiKey("sandbox")
      for (let i = 0; i < 3; i++) {
        const refused = yield* whoami(stranger)
        expect(refused.status).toBe(401)
        expect(refused.body).toMatchObject({ success: false, error: "UNAUTHORIZED" })
      }
      expect(store.lookups()).toBe(1)
      const foreign = yield* whoami(generateApiKey("mainnet"))
      expect(foreign.status).toBe(403)
      expect(foreign.body).toMatchObject({ success: false, error: "WRONG_ENVIRONMENT" })
      expect(store.lookups()).toBe(1)
    }))
})
