import { describe, expect, it, layer } from "@effect/vitest"
import { Effect, Either } from "effect"
import { NotReady } from "../../src/api/system/statusBody.ts"
import { fetchJson } from "../support/httpFetch.ts"
import { gatewayClient, gatewayForTest, serverUrl } from "../../src/bench/support/httpTestServer.ts"
import { liveStatus, ProjectionControl, startingStatus } from "../../src/bench/support/projectionTest.ts"

describe("system endpoints", () => {
  layer(gatewayForTest(), { excludeTestServices: true })((it) => {
    it.effect("/health answers 200 {status: ok, version}", () =>
      Effect.gen(function*() {
        const client = yield* gatewayClient
        const health = yield* client.system.health()
        expect(health.status).toBe("ok")
        expect(health.version).toMatch(/^\d+\.\d+\.\d+/)
      }))

    it.effect("/ready is 503 with Retry-After and no data until the projection is live, then 200", () =>
      Effect.gen(function*() {
        const control = yield* ProjectionControl
        const url = yield* serverUrl
        const client = yield* gatewayClient
        yield* control.setStatus(startingStatus)

        const notReady = yield* fetchJson(`${url}/ready`)
        expect(notReady.status).toBe(503)
        expect(notReady.headers.get("retry-after")).toBe("5")
        expect(notReady.headers.get("x-request-id")).toBeTruthy()
        expect(notReady.body).toMatchObject({ success: false, error: "PROJECTION_UNAVAILABLE", status: "starting" })
        expect(notReady.body).not.toHaveProperty("data")
        const typed = yield* Effect.either(client.system.ready())
        expect(Either.isLeft(typed) && typed.left instanceof NotReady).toBe(true)

        yield* control.setStatus({ ...liveStatus(1000), status: "catching_up" })
        const catchingUp = yield* fetchJson(`${url}/ready`)
        expect(catchingUp.status).toBe(503)
        expect(catchingUp.body.status).toBe("catching_up")

        yield* control.setStatus(liveStatus(1000))
        const ready = yield* client.system.ready()
        expect(ready.status).toBe("live")
        expect(ready.asOf).toEqual({ slot: 1000, blockTime: 1_700_000_400 })
        const raw = yield* fetchJson(`${url}/ready`)
        expect(raw.status).toBe(200)
        expect(raw.headers.get("retry-after")).toBeNull()
      }))

    it.effect("/status reports status, position, lag and checkpoint, with RPC URLs cut to their origin", () =>
      Effect.gen(function*() {
        const control = yield* ProjectionControl
        const client = yield* gatewayClient
        yield* control.setStatus(
          liveStatus(5000, { rpcUrl: "https://rpc.example.com/v1/secret-key?api-key=abc", wsUrl: "wss://rpc.example.com:8443/x" })
        )
        const status = yield* client.system.status()
        expect(status).toEqual({
          status: "live",
          asOf: { slot: 5000, blockTime: 1_700_002_000 },
          chainSlot: 5001,
          lagSlots: 1,
          lagSeconds: 0.4,
          checkpointSlot: 4900,
          reason: null,
          rpcUrl: "https://rpc.example.com",
          wsUrl: "wss://rpc.example.com:8443",
          // no background work reports in this server (the end-to-end test of `serve` covers them)
          backfill: null,
          rollup: null,
          // no Leadership here: a lone instance leads
          role: "leader",
          checkpointAgeSeconds: null
        })

        yield* control.setStatus({ ...startingStatus, status: "degraded", reason: "chain stream disconnected" })
        const degraded = yield* client.system.status()
        expect(degraded.status).toBe("degraded")
        expect(degraded.reason).toBe("chain stream disconnected")
        expect(degraded.asOf).toBeNull()
      }))
  })
})
