import { describe, expect, it } from "@effect/vitest"
import type { Address } from "@solana/kit"
import { Context, Effect, Layer, Option, Redacted, Stream } from "effect"
import { PartnerKeyLive } from "../../layers/memory/PartnerKeyLive.ts"
import { RateLimiterLive } from "../../layers/memory/RateLimiterLive.ts"
import { DatabaseLive } from "../../layers/postgres/Database.ts"
import { KeyConnectionsLive } from "../../layers/postgres/KeyConnectionsLive.ts"
import { HttpListener } from "../../layers/uws/HttpServer.ts"
import { WsStreamLive } from "../../layers/uws/wsStream.ts"
import { PartnerKeys, type PartnerKeyRecord } from "../../services/PartnerKeys.ts"
import { generateApiKey, hashApiKey } from "../../src/domain/partnerKeys/apiKeyFormat.ts"
import { gatewayForTest } from "../../src/bench/support/httpTestServer.ts"
import { liveStatus } from "../../src/bench/support/projectionTest.ts"
import { VaultStateFixture } from "../../src/bench/support/vaultStateFixture.ts"
import { scratchDatabaseUrl } from "../support/databaseUrl.ts"
import { connectStream } from "./wsClient.ts"

const VAULT = "J7qhMAKnB6G5dvoAN9281ufabajKbyGQxxd2bq6R7fPJ" as Address
const KEY = generateApiKey("sandbox")
const record: PartnerKeyRecord = {
  id: "shared-stream-key",
  name: "shared",
  ownerWallet: null,
  environment: "sandbox",
  prefix: "vg_sandbox_",
  last4: "test",
  quotaLimit: null,
  quotaWindowSeconds: null,
  createdAt: new Date(0),
  revokedAt: null,
  expiresAt: null
}
const notUsed = Effect.die(new Error("not used by the upgrade"))
const PartnerKeysInMemory = Layer.succeed(PartnerKeys, {
  issue: () => notUsed,
  ensure: () => notUsed,
  list: notUsed,
  revoke: () => notUsed,
  rotate: () => notUsed,
  findByHash: (hash) => Effect.sync(() => Option.fromNullable(hash === hashApiKey(KEY) ? record : undefined)),
  invalidations: Stream.concat(Stream.make({ _tag: "Listening" as const }), Stream.never)
})

/** One gateway instance with the stream, its connections per key counted in the database at `url` (its own pool). */
const gatewayOn = (url: string) =>
  Effect.map(
    Layer.build(
      gatewayForTest({
        state: new VaultStateFixture().vault(VAULT).state,
        initial: liveStatus(1_000),
        partnerKey: PartnerKeyLive({ cluster: "sandbox", defaultQuota: { limit: 1_000, windowSeconds: 60 } }).pipe(
          Layer.provide(Layer.merge(PartnerKeysInMemory, RateLimiterLive))
        ),
        extraRoutes: WsStreamLive({ limits: { maxConnectionsPerKey: 3 } }).pipe(
          Layer.provide(KeyConnectionsLive().pipe(Layer.provide(DatabaseLive({ url: Option.some(Redacted.make(url)), dataDir: "" })), Layer.orDie))
        )
      })
    ),
    (context) => Context.get(context, HttpListener).url
  )

describe("/v2/stream connections per key on two instances sharing one database", () => {
  it.scopedLive("the key's connection limit holds across both: 429 at the upgrade on either; a close frees a place on the other", () =>
    Effect.gen(function*() {
      const url = yield* scratchDatabaseUrl
      const a = yield* gatewayOn(url)
      const b = yield* gatewayOn(url)
      const headers = { "x-api-key": KEY }
      const first = yield* connectStream(a, headers)
      yield* connectStream(a, headers)
      const onB = yield* connectStream(b, headers)
      onB.send({ op: "subscribe", id: 1, topics: [`vault:${VAULT}`] })
      expect(yield* onB.next).toMatchObject({ type: "subscribed", id: 1 })

      for (const target of [b, a]) {
        const refused = yield* Effect.flip(connectStream(target, headers))
        expect(refused.status).toBe(429)
        expect(JSON.parse(refused.body)).toMatchObject({ success: false, error: "RATE_LIMITED", limit: 3, remaining: 0 })
        expect(JSON.parse(refused.body).message).toMatch(/3 open WebSocket connections/)
      }

      first.socket.close()
      yield* Effect.promise(() => first.closed)
      let admitted = false
      for (let i = 0; i < 40 && !admitted; i++) {
        admitted = yield* connectStream(b, headers).pipe(Effect.as(true), Effect.catchAll(() => Effect.succeed(false)))
        if (!admitted) yield* Effect.sleep("50 millis")
      }
      expect(admitted).toBe(true)
      expect((yield* Effect.flip(connectStream(a, headers))).status).toBe(429)
    }), 90_000)
})
