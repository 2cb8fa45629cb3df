import { SqlClient } from "@effect/sql"
import { describe, expect, layer } from "@effect/vitest"
import { Context, Effect, Layer, Option, Redacted } from "effect"
import { DatabaseLive } from "../../../layers/postgres/Database.ts"
import { PartnerKeysLive } from "../../../layers/postgres/PartnerKeysLive.ts"
import { SharedRateLimiterLive, type SharedRateLimiterOptions } from "../../../layers/postgres/SharedRateLimiterLive.ts"
import { PartnerKeys } from "../../../services/PartnerKeys.ts"
import { type Quota, RateLimiter } from "../../../services/RateLimiter.ts"
import { maxLeaseOf } from "../../../src/limits/quotaLeases.ts"
import { scratchDatabaseUrl } from "../../support/databaseUrl.ts"
import { fetchJson, type JsonResponse } from "../../support/httpFetch.ts"
import { startKeyedServer } from "../../support/keyedTestServer.ts"

/**
 * Several instances (each its own limiter and its own pool, as separate processes have) counting
 * one quota in one PostgreSQL database.
 */
class DatabaseUrl extends Context.Tag("test/DatabaseUrl")<DatabaseUrl, string>() {}

const database = (url: string) => DatabaseLive({ url: Option.some(Redacted.make(url)), dataDir: "" })

/** One instance's services, built in the current scope (sequentially: the first one migrates). */
const instance = (options: SharedRateLimiterOptions = {}) =>
  Effect.flatMap(DatabaseUrl, (url) =>
    Layer.build(Layer.mergeAll(SharedRateLimiterLive(options), PartnerKeysLive).pipe(Layer.provideMerge(database(url)))))

const limiterOf = (context: Context.Context<RateLimiter>) => Context.get(context, RateLimiter)

const uniqueBucket = (kind: string) => `${kind}:${Math.random().toString(36).slice(2, 12)}`

/** Sleeps until just after the next multiple of `windowMs` (a window starts). */
const untilWindowStart = (windowMs: number) =>
  Effect.suspend(() => Effect.sleep(windowMs - (Date.now() % windowMs) + 30))

layer(Layer.scoped(DatabaseUrl, scratchDatabaseUrl), { timeout: 120_000, excludeTestServices: true })("shared quotas on one PostgreSQL", (it) => {
  describe("counting across instances", () => {
    it.scoped("three instances under concurrent load accept between limit and limit - 1 + 3 × lease per window", () =>
      Effect.gen(function*() {
        const maxLeaseShare = 0.05
        const instances = [
          yield* instance({ leases: { maxLeaseShare } }),
          yield* instance({ leases: { maxLeaseShare } }),
          yield* instance({ leases: { maxLeaseShare } })
        ].map(limiterOf)
        const quota: Quota = { limit: 200, windowSeconds: 1_000_000 }
        const lease = maxLeaseOf(quota.limit, { maxLeaseShare, commitTimeoutMs: 0, leaseMs: 0 })
        expect(lease).toBe(10)
        const bucket = uniqueBucket("key")
        const accepted = [0, 0, 0]
        let refusedEarly = 0
        // 8 concurrent clients per instance, 60 requests each: 1,440 requests for a limit of 200
        yield* Effect.forEach(instances, (limiter, i) =>
          Effect.forEach(Array.from({ length: 8 }), () =>
            Effect.forEach(Array.from({ length: 60 }), () =>
              limiter.consume(bucket, quota).pipe(
                Effect.tap((decision) => {
                  if (decision.allowed) accepted[i]!++
                  else if (accepted[0]! + accepted[1]! + accepted[2]! < quota.limit) refusedEarly++
                }),
                Effect.zipLeft(Effect.sleep(1))
              ), { discard: true }), { concurrency: "unbounded", discard: true }), { concurrency: "unbounded", discard: true })
        const total = accepted[0]! + accepted[1]! + accepted[2]!
        console.log(`shared quota, 3 instances, limit ${quota.limit}, max lease ${lease}: accepted ${total} (${accepted.join(" + ")}), overshoot ${total - quota.limit} (bound ${3 * lease - 1})`)
        expect(refusedEarly).toBe(0)
        expect(total).toBeGreaterThanOrEqual(quota.limit)
        expect(total).toBeLessThanOrEqual(quota.limit - 1 + 3 * lease)
        // every instance served part of it: the count really was shared
        for (const count of accepted) expect(count).toBeGreaterThan(0)
        for (const count of accepted) expect(count).toBeLessThan(quota.limit)
        // once over, every instance refuses at once, with the window's end
        for (const limiter of instances) {
          const refused = limiter.consumeNow(bucket, quota, Date.now())
          expect(refused).toMatchObject({ allowed: false, remaining: 0, limit: quota.limit })
          expect(refused!.retryAfterSeconds).toBeGreaterThanOrEqual(1)
        }
      }))

    it.scoped("a new window starts a new count; rows of finished windows are deleted", () =>
      Effect.gen(function*() {
        const options = { cleanupEvery: "200 millis", keepFinishedSeconds: 0 } as const
        const contextA = yield* instance(options)
        const [a, b] = [contextA, yield* instance(options)].map(limiterOf) as [RateLimiter["Type"], RateLimiter["Type"]]
        const sql = Context.get(contextA, SqlClient.SqlClient)
        const quota: Quota = { limit: 4, windowSeconds: 3 }
        const bucket = uniqueBucket("build-ip")
        const windowMs = quota.windowSeconds * 1000
        const countWindow = Effect.gen(function*() {
          let accepted = 0
          for (let i = 0; i < 12; i++) {
            const decision = yield* (i % 2 === 0 ? a : b).consume(bucket, quota)
            if (decision.allowed) accepted++
          }
          return accepted
        })
        yield* untilWindowStart(windowMs)
        const first = Math.floor(Date.now() / windowMs) * windowMs
        const firstCount = yield* countWindow
        // lease 1 (4 × 1 %): at most one beyond the limit per instance, less one
        expect(firstCount).toBeGreaterThanOrEqual(4)
        expect(firstCount).toBeLessThanOrEqual(5)
        const rows = yield* sql<{ used: string }>`SELECT used FROM quota_window WHERE bucket = ${bucket} AND window_start = ${first}`
        expect(Number(rows[0]?.used)).toBeGreaterThanOrEqual(3)

        yield* untilWindowStart(windowMs)
        const secondCount = yield* countWindow
        expect(secondCount).toBeGreaterThanOrEqual(4)
        expect(secondCount).toBeLessThanOrEqual(5)

        // the first window ended over 2 s ago: its row goes with the next cleanup
        let left = 1
        for (let i = 0; i < 50 && left > 0; i++) {
          yield* Effect.sleep("100 millis")
          left = (yield* sql<{ n: number }>`SELECT count(*)::int AS n FROM quota_window WHERE bucket = ${bucket} AND window_start = ${first}`)[0]!.n
        }
        expect(left).toBe(0)
      }))
  })

  describe("over HTTP", () => {
    it.scoped("a key's quota holds across two servers; the refusal is 429 RATE_LIMITED with Retry-After and X-RateLimit-*", () =>
      Effect.gen(function*() {
        const contextA = yield* instance()
        const contextB = yield* instance()
        const options = { cluster: "sandbox", defaultQuota: { limit: 1000, windowSeconds: 600 } } as const
        const urlA = yield* startKeyedServer(options).pipe(Effect.provide(contextA))
        const urlB = yield* startKeyedServer(options).pipe(Effect.provide(contextB))
        const keys = Context.get(contextA, PartnerKeys)
        const { key } = yield* keys.issue({ name: "shared", ownerWallet: null, environment: "sandbox", quotaLimit: 10, quotaWindowSeconds: 3600 })
        const headers = { "x-api-key": Redacted.value(key) }
        const statuses: Array<number> = []
        let limited: JsonResponse | undefined
        for (let i = 0; i < 16; i++) {
          const response = yield* fetchJson(`${i % 2 === 0 ? urlA : urlB}/v2/whoami`, { headers })
          statuses.push(response.status)
          if (response.status === 429) limited = response
        }
        const ok = statuses.filter((status) => status === 200).length
        // lease 1 for a limit of 10: from 10 to 11 accepted (each server alone would have taken 10)
        expect(ok).toBeGreaterThanOrEqual(10)
        expect(ok).toBeLessThanOrEqual(11)
        expect(statuses.filter((status) => status !== 200 && status !== 429)).toEqual([])
        expect(limited!.body).toMatchObject({ success: false, error: "RATE_LIMITED", limit: 10, remaining: 0 })
        expect(limited!.body.message).toMatch(/quota of 10 requests per 3600 s/)
        const retryAfter = Number(limited!.headers.get("retry-after"))
        expect(retryAfter).toBeGreaterThanOrEqual(1)
        expect(retryAfter).toBeLessThanOrEqual(3600)
        expect(limited!.headers.get("x-ratelimit-limit")).toBe("10")
        expect(limited!.headers.get("x-ratelimit-remaining")).toBe("0")
        expect(Number(limited!.headers.get("x-ratelimit-reset"))).toBe(limited!.body.reset)
      }))
  })
})
