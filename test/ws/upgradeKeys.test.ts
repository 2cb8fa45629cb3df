import { describe, expect, layer } from "@effect/vitest"
import type { Address } from "@solana/kit"
import { Effect, Layer, Option, Redacted, Stream } from "effect"
import { PartnerKeyLive } from "../../layers/memory/PartnerKeyLive.ts"
import { RateLimiterLive } from "../../layers/memory/RateLimiterLive.ts"
import { WsStreamLive } from "../../layers/uws/wsStream.ts"
import { PartnerKeys, type PartnerKeyRecord } from "../../services/PartnerKeys.ts"
import { generateApiKey, hashApiKey } from "../../src/domain/partnerKeys/apiKeyFormat.ts"
import { gatewayForTest, serverUrl } from "../../src/bench/support/httpTestServer.ts"
import { liveStatus } from "../../src/bench/support/projectionTest.ts"
import { VaultStateFixture } from "../../src/bench/support/vaultStateFixture.ts"
import { connectStream } from "./wsClient.ts"

const VAULT = "J7qhMAKnB6G5dvoAN9281ufabajKbyGQxxd2bq6R7fPJ" as Address

const record = (id: string, fields: Partial<PartnerKeyRecord> = {}): PartnerKeyRecord => ({
  id,
  name: id,
  ownerWallet: null,
  environment: "sandbox",
  prefix: "vg_sandbox_",
  last4: "test",
  quotaLimit: null,
  quotaWindowSeconds: null,
  createdAt: new Date(0),
  revokedAt: null,
  expiresAt: null,
  ...fields
})

const GOOD = generateApiKey("sandbox")
const REVOKED = generateApiKey("sandbox")
const UNKNOWN = generateApiKey("sandbox")
const MAINNET = generateApiKey("mainnet")
/** Two requests per minute: the third upgrade is over the key's quota. */
const METERED = generateApiKey("sandbox")

/** Three requests per minute: the upgrade and two subscribes. */
const SUBSCRIBE_METERED = generateApiKey("sandbox")
/** Revoked while its connection is open. */
const LATER_REVOKED = generateApiKey("sandbox")

const stored = new Map<string, PartnerKeyRecord>([
  [hashApiKey(GOOD), record("good")],
  [hashApiKey(REVOKED), record("revoked", { revokedAt: new Date(1_000) })],
  [hashApiKey(METERED), record("metered", { quotaLimit: 2, quotaWindowSeconds: 60 })],
  [hashApiKey(SUBSCRIBE_METERED), record("subscribe-metered", { quotaLimit: 3, quotaWindowSeconds: 60 })],
  [hashApiKey(LATER_REVOKED), record("later-revoked")]
])

const notUsed = Effect.die(new Error("not used by the upgrade"))

/** The key store as the real middleware reads it (lookups by hash), in memory. */
const PartnerKeysInMemory = Layer.succeed(PartnerKeys, {
  issue: () => notUsed,
  ensure: () => notUsed,
  list: notUsed,
  revoke: () => notUsed,
  rotate: () => notUsed,
  findByHash: (hash) => Effect.sync(() => Option.fromNullable(stored.get(hash))),
  invalidations: Stream.concat(Stream.make({ _tag: "Listening" as const }), Stream.never)
})

/**
 * The real `PartnerKeyLive` (environment check, revocation, quota) in front of the stream. Records
 * stay cached 300 ms: a check after that reads the store again (asynchronously, as from Postgres).
 */
const partnerKey = PartnerKeyLive({ cluster: "sandbox", defaultQuota: { limit: 1_000, windowSeconds: 60 }, cacheTtlMs: 300 }).pipe(
  Layer.provide(Layer.merge(PartnerKeysInMemory, RateLimiterLive))
)

const connect = (headers: Record<string, string>) => Effect.flatMap(serverUrl, (url) => connectStream(url, headers))

describe("/v2/stream upgrade behind the real partner key middleware", () => {
  layer(
    gatewayForTest({
      state: new VaultStateFixture().vault(VAULT).state,
      initial: liveStatus(1_000),
      partnerKey,
      extraRoutes: WsStreamLive()
    }),
    { excludeTestServices: true }
  )((it) => {
    it.scoped("401 without a key, with an unknown or a revoked key; 403 for another environment's key; 429 over the key's quota", () =>
      Effect.gen(function*() {
        const refusals = [
          [{}, 401, "UNAUTHORIZED"],
          [{ "x-api-key": UNKNOWN }, 401, "UNAUTHORIZED"],
          [{ authorization: `Bearer ${REVOKED}` }, 401, "UNAUTHORIZED"],
          [{ "x-api-key": "not-a-key-at-all" }, 401, "UNAUTHORIZED"],
          [{ "x-api-key": MAINNET }, 403, "WRONG_ENVIRONMENT"]
        ] as const
        for (const [headers, status, code] of refusals) {
          const refused = yield* Effect.flip(connect(headers))
          expect(refused.status, JSON.stringify(headers)).toBe(status)
          expect(JSON.parse(refused.body)).toMatchObject({ success: false, error: code })
        }

        const client = yield* connect({ authorization: `Bearer ${GOOD}` })
        client.send({ op: "subscribe", id: 1, topics: [`vault:${VAULT}`] })
        expect(yield* client.next).toMatchObject({ type: "subscribed", id: 1, topic: `vault:${VAULT}`, seq: 0 })

        // The upgrade is a request against the key's quota, like a REST call.
        yield* connect({ "x-api-key": METERED })
        yield* connect({ "x-api-key": METERED })
        const over = yield* Effect.flip(connect({ "x-api-key": METERED }))
        expect(over.status).toBe(429)
        expect(JSON.parse(over.body)).toMatchObject({ success: false, error: "RATE_LIMITED" })
      }))

    it.effect("a plain GET (no upgrade) is 426 with Upgrade: websocket, key or not", () =>
      Effect.gen(function*() {
        const url = yield* serverUrl
        for (const headers of [{}, { "x-api-key": GOOD }]) {
          const response = yield* Effect.promise(() => fetch(`${url}/v2/stream`, { headers }))
          expect(response.status).toBe(426)
          expect(response.headers.get("upgrade")).toBe("websocket")
          expect(yield* Effect.promise(() => response.json())).toMatchObject({ success: false, error: "UPGRADE_REQUIRED" })
        }
      }))

    it.scoped("each subscribe counts against the key's quota: over it, an error frame and no subscription", () =>
      Effect.gen(function*() {
        const client = yield* connect({ "x-api-key": SUBSCRIBE_METERED })
        client.send({ op: "subscribe", id: 1, topics: [`vault:${VAULT}`] })
        expect(yield* client.next).toMatchObject({ type: "subscribed", id: 1 })
        client.send({ op: "subscribe", id: 2, topics: ["status"] })
        expect(yield* client.next).toMatchObject({ type: "subscribed", id: 2 })
        client.send({ op: "subscribe", id: 3, topics: ["slots"] })
        expect(yield* client.next).toMatchObject({ type: "error", id: 3, code: "RATE_LIMITED", message: expect.stringContaining("quota") })
        // Not subscribed: unsubscribing removes nothing. The connection stays open.
        client.send({ op: "unsubscribe", id: 4, topics: ["slots"] })
        expect(yield* client.next).toEqual({ type: "unsubscribed", id: 4, topics: [] })
      }))

    it.scoped("a key revoked after the upgrade cannot subscribe once its record is read again; later messages keep their order", () =>
      Effect.gen(function*() {
        const client = yield* connect({ "x-api-key": LATER_REVOKED })
        client.send({ op: "subscribe", id: 1, topics: [`vault:${VAULT}`] })
        expect(yield* client.next).toMatchObject({ type: "subscribed", id: 1 })
        stored.set(hashApiKey(LATER_REVOKED), record("later-revoked", { revokedAt: new Date() }))
        yield* Effect.sleep("400 millis")
        client.send({ op: "subscribe", id: 2, topics: ["status"] })
        client.send({ op: "ping" })
        client.send({ op: "unsubscribe", id: 3, topics: [`vault:${VAULT}`] })
        expect(yield* client.next).toMatchObject({ type: "error", id: 2, code: "UNAUTHORIZED" })
        expect(yield* client.next).toEqual({ type: "pong" })
        expect(yield* client.next).toEqual({ type: "unsubscribed", id: 3, topics: [`vault:${VAULT}`] })
      }))
  })
})
