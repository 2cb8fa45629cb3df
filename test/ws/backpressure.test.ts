import { describe, expect, layer } from "@effect/vitest"
import type { Address } from "@solana/kit"
import { Effect } from "effect"
import type { WsHub } from "../../layers/uws/wsHub.ts"
import { serverUrl } from "../../src/bench/support/httpTestServer.ts"
import { TEST_PARTNER_KEY } from "../../src/bench/support/partnerKeyStandIn.ts"
import { liveStatus, ProjectionControl } from "../../src/bench/support/projectionTest.ts"
import { VaultStateFixture } from "../../src/bench/support/vaultStateFixture.ts"
import { connectStream, type Frame } from "./wsClient.ts"
import { streamGatewayForTest } from "../../src/bench/support/wsTestServer.ts"

const VAULT = "J7qhMAKnB6G5dvoAN9281ufabajKbyGQxxd2bq6R7fPJ" as Address
const fixture = new VaultStateFixture({ slot: 1_000, blockTime: 1_800_000_000 }).vault(VAULT)
const limits = { backpressureBytes: 256 * 1024, closeAboveBytes: 256 * 1024 * 1024 }
let hub: WsHub | undefined

describe("/v2/stream backpressure", () => {
  layer(
    streamGatewayForTest({
      state: fixture.state,
      initial: liveStatus(1_000),
      limits,
      observe: (observed) => (hub = observed)
    }),
    { excludeTestServices: true }
  )((it) => {
    it.scoped("a client that stops reading gets resync, then fresh snapshots once it reads again; no update is skipped silently", () =>
      Effect.gen(function*() {
        const control = yield* ProjectionControl
        const client = yield* connectStream(yield* serverUrl, { "x-api-key": TEST_PARTNER_KEY })
        const topic = `vault:${VAULT}`
        client.send({ op: "subscribe", id: 1, topics: [topic, "slots"] })
        expect((yield* client.next).type).toBe("subscribed")
        expect((yield* client.next).type).toBe("subscribed")

        client.socket.pause()
        // One fan-out round per batch (yielding between them), until the server must give up on the client.
        // Until the server is over the soft limit, then as many rounds again: held topics add nothing.
        let slot = 1_000
        let rounds = 40_000
        for (let round = 0; round < rounds; round++) {
          if (rounds === 40_000 && hub!.maxBufferedBytes > limits.backpressureBytes) rounds = round * 2
          fixture.state.asOf = { slot: ++slot, blockTime: 1_800_000_000 + round }
          yield* control.publish({ slot, version: round + 1, changes: [{ _tag: "VaultChanged", vault: VAULT }] })
          yield* Effect.yieldNow()
        }
        // Memory stays bounded: the soft limit plus the round that crossed it.
        expect(hub!.maxBufferedBytes).toBeGreaterThan(limits.backpressureBytes)
        expect(hub!.maxBufferedBytes).toBeLessThan(limits.backpressureBytes + 64 * 1024)
        client.socket.resume()

        const seqs = new Map<string, Array<number>>()
        let resync: Frame | undefined
        while (resync === undefined) {
          const frame = yield* client.next
          if (frame.type === "resync") resync = frame
          else if (frame.type === "update") seqs.set(frame.topic, [...(seqs.get(frame.topic) ?? []), frame.seq])
          else throw new Error(`unexpected frame before resync: ${JSON.stringify(frame).slice(0, 200)}`)
        }
        expect([...resync.topics].sort()).toEqual(["slots", topic])
        // Everything sent before the resync arrives, contiguous from seq 1.
        for (const list of seqs.values()) expect(list).toEqual(list.map((_, index) => index + 1))
        const snapshots = [yield* client.next, yield* client.next]
        for (const snapshot of snapshots) {
          expect(snapshot.type).toBe("subscribed")
          expect(snapshot.asOf.slot).toBe(slot)
        }
        // After the new baseline, updates carry on from its seq.
        const baseline = snapshots.find((frame) => frame.topic === topic)!
        fixture.state.asOf = { slot: ++slot, blockTime: 1_900_000_000 }
        yield* control.publish({ slot, version: 50_000, changes: [{ _tag: "VaultChanged", vault: VAULT }] })
        const next = [yield* client.next, yield* client.next].find((frame) => frame.topic === topic)!
        expect(next).toMatchObject({ type: "update", seq: baseline.seq + 1, asOf: { slot } })
      }), { timeout: 60_000 })
  })
})
