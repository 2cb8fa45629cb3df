import { describe, expect, it, layer } from "@effect/vitest"
import { Effect, Layer } from "effect"
import { MetricsListener, MetricsListenerLive } from "../../layers/otel/MetricsListenerLive.ts"
import WebSocket from "ws"
import { WsStreamLive } from "../../layers/uws/wsStream.ts"
import { gatewayForTest, serverUrl } from "../../src/bench/support/httpTestServer.ts"
import { TEST_PARTNER_KEY } from "../../src/bench/support/partnerKeyStandIn.ts"
import { liveStatus, ProjectionControl } from "../../src/bench/support/projectionTest.ts"

const scrape = Effect.flatMap(MetricsListener, ({ url }) => Effect.promise(() => fetch(url).then(async (r) => ({ status: r.status, type: r.headers.get("content-type"), text: await r.text() }))))

/** The value of one sample line (`name{labels} value`), or undefined when absent. */
const sample = (text: string, line: RegExp): number | undefined => {
  for (const row of text.split("\n")) {
    if (row.startsWith("#")) continue
    const match = line.exec(row)
    if (match) return Number(row.slice(row.lastIndexOf(" ") + 1))
  }
  return undefined
}

// An address the projection does not hold: its read answers 404, and it must never become a label.
const UNKNOWN_VAULT = "9xQeWvG816bUx9EPjHmaT23yvVM2ZWbrrpZb9PusVFin"

describe("the metrics listener", () => {
  const gateway = gatewayForTest({ meterRequests: true, extraRoutes: WsStreamLive({ meter: true }) })
  layer(MetricsListenerLive({ host: "127.0.0.1", port: 0 }).pipe(Layer.provideMerge(gateway)), { excludeTestServices: true })((it) => {
    it.effect("serves the Prometheus text format on its own port, and only /metrics", () =>
      Effect.gen(function*() {
        const { url } = yield* MetricsListener
        const api = yield* serverUrl
        expect(new URL(url).port).not.toBe(new URL(api).port)
        const answer = yield* scrape
        expect(answer.status).toBe(200)
        expect(answer.type).toMatch(/^text\/plain/)
        expect(answer.text).toMatch(/^# HELP vault_gateway_projection_phase /m)
        const other = yield* Effect.promise(() => fetch(url.replace("/metrics", "/status")))
        expect(other.status).toBe(404)
        const fromApi = yield* Effect.promise(() => fetch(`${api}/metrics`))
        expect(fromApi.status).not.toBe(200)
      }))

    it.effect("counts requests by route template, method and status class, never by raw path", () =>
      Effect.gen(function*() {
        const control = yield* ProjectionControl
        yield* control.setStatus(liveStatus(1000))
        const api = yield* serverUrl
        const route = /^vault_gateway_http_requests_total\{route="\/v2\/vault\/:vaultAddress",method="GET",status_class="4xx"\}/
        const before = sample((yield* scrape).text, route) ?? 0
        for (let i = 0; i < 3; i++) {
          const answer = yield* Effect.promise(() => fetch(`${api}/v2/vault/${UNKNOWN_VAULT}`, { headers: { "x-api-key": "nt_sandbox_test" } }))
          expect(answer.status).toBeGreaterThanOrEqual(400)
          expect(answer.status).toBeLessThan(500)
        }
        const text = (yield* scrape).text
        expect(sample(text, route)).toBe(before + 3)
        expect(text).toMatch(/vault_gateway_http_request_duration_seconds_count\{route="\/v2\/vault\/:vaultAddress",method="GET"\} \d+/)
        expect(text).not.toContain(UNKNOWN_VAULT)
        expect(text).not.toContain("nt_sandbox_test")
      }))

    it.effect("counts WebSocket connections, subscriptions and closes by code", () =>
      Effect.gen(function*() {
        const api = yield* serverUrl
        const before = (yield* scrape).text
        const closesBefore = sample(before, /^vault_gateway_ws_closes_total\{code="1000"\}/) ?? 0
        const socket = new WebSocket(`${api.replace("http", "ws")}/v2/stream`, { headers: { "x-api-key": TEST_PARTNER_KEY } })
        yield* Effect.promise(() => new Promise<void>((resolve, reject) => {
          socket.once("open", () => socket.send(JSON.stringify({ op: "subscribe", id: 1, topics: ["status", "slots"] })))
          socket.on("message", (frame) => {
            if (JSON.parse(String(frame)).type === "subscribed") resolve()
          })
          socket.once("error", reject)
        }))
        yield* Effect.promise(() => new Promise((resolve) => setTimeout(resolve, 100)))
        const open = (yield* scrape).text
        expect(sample(open, /^vault_gateway_ws_connections /)).toBe(1)
        expect(sample(open, /^vault_gateway_ws_subscriptions /)).toBe(2)
        socket.close(1000)
        yield* Effect.promise(() => new Promise((resolve) => socket.once("close", resolve)))
        yield* Effect.promise(() => new Promise((resolve) => setTimeout(resolve, 100)))
        const closed = (yield* scrape).text
        expect(sample(closed, /^vault_gateway_ws_connections /)).toBe(0)
        expect(sample(closed, /^vault_gateway_ws_subscriptions /)).toBe(0)
        expect(sample(closed, /^vault_gateway_ws_closes_total\{code="1000"\}/)).toBe(closesBefore + 1)
      }))

    it.effect("reports the projection's phase, slot and lag, and the lag grows while the projection stands still", () =>
      Effect.gen(function*() {
        const control = yield* ProjectionControl
        const nowSeconds = Math.floor(Date.now() / 1000)
        // a projection frozen at a block 30 s old: the lag in seconds is computed at each scrape
        yield* control.setStatus(liveStatus(5000, { asOf: { slot: 5000, blockTime: nowSeconds - 30 }, chainSlot: 5004, lagSlots: 4 }))
        const first = (yield* scrape).text
        expect(sample(first, /^vault_gateway_projection_phase\{phase="live"\}/)).toBe(1)
        expect(sample(first, /^vault_gateway_projection_phase\{phase="starting"\}/)).toBe(0)
        expect(sample(first, /^vault_gateway_projection_slot /)).toBe(5000)
        expect(sample(first, /^vault_gateway_chain_tip_slot /)).toBe(5004)
        expect(sample(first, /^vault_gateway_projection_lag_slots /)).toBe(4)
        const lag = sample(first, /^vault_gateway_projection_lag_seconds /)!
        expect(lag).toBeGreaterThanOrEqual(30)
        yield* Effect.promise(() => new Promise((resolve) => setTimeout(resolve, 1100)))
        const later = sample((yield* scrape).text, /^vault_gateway_projection_lag_seconds /)!
        expect(later).toBeGreaterThan(lag + 1)
      }))
  })
})
