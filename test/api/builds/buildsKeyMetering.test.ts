import { describe, expect, layer } from "@effect/vitest"
import { Effect, HashMap, Layer, Logger, LogLevel } from "effect"
import { fetchJson } from "../../support/httpFetch.ts"
import { gatewayForTest, serverUrl } from "../../../src/bench/support/httpTestServer.ts"
import { TEST_PARTNER_KEY } from "../../../src/bench/support/partnerKeyStandIn.ts"
import { liveStatus } from "../../../src/bench/support/projectionTest.ts"
import { alice, bob, makeWorld, vault } from "../../../src/bench/support/buildWorld.ts"

// A build carrying a valid partner key is metered on the key's quota, not the client IP's, and
// the partner (key id and name, never the key) is named in the logs.
const world = makeWorld({ positions: [{ owner: alice, fields: { shares: 50_000_000n, netDeposits: 50_000_000n } }] })

interface Line {
  readonly message: string
  readonly annotations: Record<string, unknown>
}
const lines: Array<Line> = []
const capture = Logger.make<unknown, void>(({ annotations, message }) => {
  lines.push({
    message: Array.isArray(message) ? message.map(String).join(" ") : String(message),
    annotations: Object.fromEntries(HashMap.toEntries(annotations))
  })
})

const post = (url: string, body: unknown, headers: Record<string, string> = {}) =>
  fetchJson(`${url}/v2/vault/${vault}/tx/deposit`, {
    method: "POST",
    headers: { "content-type": "application/json", ...headers },
    body: JSON.stringify(body)
  })

describe("key-metered builds", () => {
  layer(
    gatewayForTest({ initial: liveStatus(100), state: world.state, buildsPerMinute: 3 }).pipe(
      Layer.provide(Logger.replace(Logger.defaultLogger, capture)),
      // the partner's name is logged at Debug: routine successes stay out of the INFO log
      Layer.provide(Logger.minimumLogLevel(LogLevel.Debug))
    ),
    { excludeTestServices: true }
  )((it) => {
    it.effect("keyed builds use the key's quota and name the partner in the logs; unkeyed ones count per IP", () =>
      Effect.gen(function*() {
        const url = yield* serverUrl
        const body = { userAddress: bob, amountRaw: "5000000" }
        const first = yield* post(url, body)
        expect(first.status).toBe(200)
        expect(first.headers.get("x-ratelimit-limit")).toBe("3")
        expect(first.headers.get("x-ratelimit-remaining")).toBe("2")
        expect(lines.some((line) => "partnerKeyId" in line.annotations)).toBe(false)

        // keyed: the key's headers, and the IP's count does not move
        for (const headers of [{ "x-api-key": TEST_PARTNER_KEY }, { authorization: `Bearer ${TEST_PARTNER_KEY}` }]) {
          const keyed = yield* post(url, body, headers)
          expect(keyed.status).toBe(200)
          expect(keyed.headers.get("x-ratelimit-limit")).toBe("1000")
        }
        const named = lines.filter((line) => line.message === "build metered on a partner key")
        expect(named).toHaveLength(2)
        for (const line of named) {
          expect(line.annotations).toMatchObject({ partnerKeyId: "test", partnerName: "test partner" })
          expect(typeof line.annotations.requestId).toBe("string")
          expect(JSON.stringify(line)).not.toContain(TEST_PARTNER_KEY)
        }
        const second = yield* post(url, body)
        expect(second.headers.get("x-ratelimit-remaining")).toBe("1")
        expect((yield* post(url, body)).status).toBe(200)
        const limited = yield* post(url, body)
        expect(limited.status).toBe(429)
        expect(Number(limited.headers.get("retry-after"))).toBeGreaterThan(0)
        expect(limited.headers.get("x-ratelimit-remaining")).toBe("0")
        // over the IP's limit, a keyed build still goes through; an unknown key does not help
        expect((yield* post(url, body, { "x-api-key": TEST_PARTNER_KEY })).status).toBe(200)
        expect((yield* post(url, body, { "x-api-key": "vg_sandbox_unknown" })).status).toBe(429)
      }))
  })
})
