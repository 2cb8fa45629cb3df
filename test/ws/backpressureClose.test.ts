import { describe, expect, layer } from "@effect/vitest"
import type { Address } from "@solana/kit"
import { Effect } from "effect"
import type { WsHub } from "../../layers/uws/wsHub.ts"
import { defaultWsLimits, transportBackpressureLimit } from "../../src/ws/limits.ts"
import { CLOSE_BACKPRESSURE } from "../../src/ws/protocol.ts"
import { serverUrl } from "../../src/bench/support/httpTestServer.ts"
import { TEST_PARTNER_KEY } from "../../src/bench/support/partnerKeyStandIn.ts"
import { liveStatus, ProjectionControl } from "../../src/bench/support/projectionTest.ts"
import { VaultStateFixture } from "../../src/bench/support/vaultStateFixture.ts"
import { connectStream } from "./wsClient.ts"
import { streamGatewayForTest } from "../../src/bench/support/wsTestServer.ts"

const VAULT = "J7qhMAKnB6G5dvoAN9281ufabajKbyGQxxd2bq6R7fPJ" as Address
const fixture = new VaultStateFixture({ slot: 1_000, blockTime: 1_800_000_000 }).vault(VAULT)
const limits = { backpressureBytes: 64 * 1024, closeAboveBytes: 256 * 1024 }

let hub: WsHub | undefined

describe("/v2/stream close above the backpressure limit", () => {
  layer(
    streamGatewayForTest({ state: fixture.state, initial: liveStatus(1_000), limits, observe: (observed) => (hub = observed) }),
    { excludeTestServices: true }
  )((it) => {
    it.scoped("a client that never reads: resync first, then (status updates still piling up) closed with 4008; the server's unsent bytes stay bounded", () =>
      Effect.gen(function*() {
        const control = yield* ProjectionControl
        const client = yield* connectStream(yield* serverUrl, { "x-api-key": TEST_PARTNER_KEY })
        const topic = `vault:${VAULT}`
        client.send({ op: "subscribe", id: 1, topics: [topic, "status"] })
        expect((yield* client.next).type).toBe("subscribed")
        expect((yield* client.next).type).toBe("subscribed")

        client.socket.pause()
        // Vault updates until the server gives up on them (resync holds the data topics).
        let slot = 1_000
        for (let round = 0; round < 40_000 && hub!.maxBufferedBytes <= limits.backpressureBytes; round++) {
          fixture.state.asOf = { slot: ++slot, blockTime: 1_800_000_000 + round }
          yield* control.publish({ slot, version: round + 1, changes: [{ _tag: "VaultChanged", vault: VAULT }] })
          yield* Effect.yieldNow()
        }
        expect(hub!.maxBufferedBytes).toBeGreaterThan(limits.backpressureBytes)
        expect(hub!.connectionCount).toBe(1)
        // `status` is not held by a resync: its updates keep coming until the connection is over the close limit.
        for (let change = 0; change < 20_000 && hub!.connectionCount > 0; change++) {
          yield* control.setStatus(liveStatus(slot, { lagSlots: change % 50, lagSeconds: change }))
          yield* Effect.yieldNow()
        }
        expect(hub!.connectionCount).toBe(0)
        // Bounded: the close limit plus the last few frames before the check that closed it, well under uWS's hard limit.
        expect(hub!.maxBufferedBytes).toBeLessThanOrEqual(limits.closeAboveBytes + 64 * 1024)
        expect(hub!.maxBufferedBytes).toBeLessThan(transportBackpressureLimit({ ...defaultWsLimits, ...limits }))

        client.socket.resume()
        const code = yield* Effect.promise(() => client.closed).pipe(Effect.timeout("10 seconds"))
        expect(code).toBe(CLOSE_BACKPRESSURE)
        const frames = yield* client.takeAll
        const resync = frames.findIndex((frame) => frame.type === "resync")
        expect(resync).toBeGreaterThan(0)
        expect(frames[resync]!.topics).toEqual([topic])
        // What was sent arrives intact: every topic's updates contiguous, vault updates only before the resync.
        const vaultSeqs = frames.filter((frame) => frame.type === "update" && frame.topic === topic).map((frame) => frame.seq)
        expect(vaultSeqs).toEqual(vaultSeqs.map((_, index) => index + 1))
        expect(frames.slice(resync).some((frame) => frame.topic === topic)).toBe(false)
        const statusSeqs = frames.filter((frame) => frame.type === "update" && frame.topic === "status").map((frame) => frame.seq)
        expect(statusSeqs.length).toBeGreaterThan(0)
        expect(statusSeqs).toEqual(statusSeqs.map((_, index) => statusSeqs[0]! + index))
      }), { timeout: 60_000 })
  })
})
