import { describe, expect, layer } from "@effect/vitest"
import { type Address, getAddressDecoder } from "@solana/kit"
import { randomBytes } from "node:crypto"
import { Effect, Schedule } from "effect"
import { serverUrl } from "../../src/bench/support/httpTestServer.ts"
import { TEST_PARTNER_KEY } from "../../src/bench/support/partnerKeyStandIn.ts"
import { liveStatus, ProjectionControl } from "../../src/bench/support/projectionTest.ts"
import { VaultStateFixture } from "../../src/bench/support/vaultStateFixture.ts"
import { putReferrer } from "../../src/bench/support/referrersFixture.ts"
import { connectStream, type Frame, type StreamClient } from "./wsClient.ts"
import { streamGatewayForTest } from "../../src/bench/support/wsTestServer.ts"

const VAULT = "J7qhMAKnB6G5dvoAN9281ufabajKbyGQxxd2bq6R7fPJ" as Address
const OTHER_VAULT = "BUNDeH5A4c47bcEoAjBhN3sCjLgYnRsmt9ibMztqVkC9" as Address
const NOT_A_VAULT = "MemoSq4gqABAXKb96qnH8TysNcWxMyWCqXgDLGmfcHr" as Address
const WALLET = "9WzDXwBbmkg8ZTbNMqUxvQRAyrZzDsGYdLVL9zYtAWWM" as Address
const USDC = "EPjFWdd5AufqSSqeM2qN1xzybapC8G4wEGGkZwyTDt1v" as Address

const bundle = (totalShares: bigint) => ({
  assetAddress: USDC,
  assetDecimals: 6,
  assetPrecision: 1_000_000n,
  bundleUnderlyingBalance: 1_234_567_890n + totalShares,
  totalShares
})
const oracle = { averageExternalEquity: 765_432_110n, lastUpdateTime: 1_799_999_940n }

const makeFixture = () =>
  new VaultStateFixture({ slot: 1_000, blockTime: 1_800_000_000 })
    .vault(VAULT, { bundle: bundle(1_100_000_000n), oracle })
    .vault(OTHER_VAULT, { bundle: bundle(5_000_000n), oracle })
    .position(VAULT, WALLET, { shares: 40_000_000n })

const keyed = { "x-api-key": TEST_PARTNER_KEY }

const connect = (headers: Record<string, string> = keyed) =>
  Effect.flatMap(serverUrl, (url) => connectStream(url, headers))

const restRead = (path: string) =>
  Effect.flatMap(serverUrl, (url) =>
    Effect.promise(() => fetch(`${url}${path}`, { headers: keyed }).then((response) => response.json() as Promise<Frame>)))

/** The next `count` frames, by topic (frames without a topic under their type). */
const framesByTopic = (client: StreamClient, count: number) =>
  Effect.gen(function*() {
    const byTopic = new Map<string, Array<Frame>>()
    for (let i = 0; i < count; i++) {
      const frame = yield* client.next
      const key = (frame.topic as string | undefined) ?? (frame.type as string)
      byTopic.set(key, [...(byTopic.get(key) ?? []), frame])
    }
    return byTopic
  })

describe("/v2/stream upgrade", () => {
  layer(streamGatewayForTest({ state: makeFixture().state, initial: liveStatus(1_000) }), { excludeTestServices: true })((it) => {
    it.scoped("refuses an upgrade without a key or with an unknown one (401, the REST error body)", () =>
      Effect.gen(function*() {
        const missing = yield* Effect.flip(connect({}))
        expect(missing.status).toBe(401)
        expect(JSON.parse(missing.body)).toMatchObject({ success: false, error: "UNAUTHORIZED" })
        const unknown = yield* Effect.flip(connect({ authorization: "Bearer vg_sandbox_not_a_key" }))
        expect(unknown.status).toBe(401)
        const bearer = yield* connect({ authorization: `Bearer ${TEST_PARTNER_KEY}` })
        bearer.send({ op: "ping" })
        expect(yield* bearer.next).toEqual({ type: "pong" })
      }))

    it.effect("the OpenAPI document's info describes the stream", () =>
      Effect.gen(function*() {
        const document = yield* restRead("/openapi.json")
        expect(document.info.description).toContain("GET /v2/stream")
        expect(document.info.description).toContain("4008")
      }))
  })
})

describe("/v2/stream connections per key", () => {
  layer(streamGatewayForTest({ state: makeFixture().state, initial: liveStatus(1_000), limits: { maxConnectionsPerKey: 1 } }), {
    excludeTestServices: true
  })((it) => {
    it.effect("a key over its connection limit is refused at upgrade (429) until one of its connections closes", () =>
      Effect.gen(function*() {
        const first = yield* Effect.scoped(Effect.gen(function*() {
          yield* connect()
          return yield* Effect.flip(connect())
        }))
        expect(first.status).toBe(429)
        expect(JSON.parse(first.body)).toMatchObject({ success: false, error: "RATE_LIMITED" })
        // The first connection is gone with its scope: once the server has seen it close, the key may connect again.
        const again = yield* Effect.scoped(Effect.gen(function*() {
          const client = yield* connect().pipe(Effect.retry(Schedule.spaced("50 millis").pipe(Schedule.intersect(Schedule.recurs(40)))))
          client.send({ op: "ping" })
          return yield* client.next
        }))
        expect(again).toEqual({ type: "pong" })
      }))
  })
})

describe("/v2/stream snapshots and updates", () => {
  const fixture = makeFixture()
  layer(streamGatewayForTest({ state: fixture.state, initial: liveStatus(1_000) }), { excludeTestServices: true })((it) => {
    it.scoped("a snapshot equal to the REST read, then contiguous updates in slot order; the last equals the REST read at its asOf", () =>
      Effect.gen(function*() {
        const control = yield* ProjectionControl
        const client = yield* connect()
        const vaultTopic = `vault:${VAULT}`
        const userTopic = `user:${VAULT}:${WALLET}`
        client.send({ op: "subscribe", id: 7, topics: [vaultTopic, userTopic, "slots"] })
        const snapshots = yield* framesByTopic(client, 3)
        const vaultSnapshot = snapshots.get(vaultTopic)![0]!
        expect(vaultSnapshot).toMatchObject({ type: "subscribed", id: 7, seq: 0, asOf: { slot: 1_000, blockTime: 1_800_000_000 } })
        const restVault = yield* restRead(`/v2/vault/${VAULT}`)
        expect(vaultSnapshot.data).toEqual(restVault.data)
        expect(vaultSnapshot.asOf).toEqual(restVault.asOf)
        const restBalance = yield* restRead(`/v2/vault/${VAULT}/user/${WALLET}/balance`)
        expect(snapshots.get(userTopic)![0]!.data).toEqual(restBalance.data)

        const rounds = 5
        const seen = new Map<string, Array<Frame>>()
        for (let round = 1; round <= rounds; round++) {
          const slot = 1_000 + round * 10
          fixture.vault(VAULT, { bundle: bundle(1_100_000_000n + BigInt(round) * 1_000_000n), oracle })
          fixture.state.asOf = { slot, blockTime: 1_800_000_000 + round * 4 }
          yield* control.publish({ slot, version: round, changes: [{ _tag: "VaultChanged", vault: VAULT }] })
          // A vault change moves the vault record, every followed position in it and the slot.
          const frames = yield* framesByTopic(client, 3)
          for (const [topic, list] of frames) seen.set(topic, [...(seen.get(topic) ?? []), ...list])
        }
        for (const topic of [vaultTopic, userTopic, "slots"]) {
          const updates = seen.get(topic)!
          expect(updates.map((frame) => frame.type)).toEqual(Array(rounds).fill("update"))
          expect(updates.map((frame) => frame.seq)).toEqual([1, 2, 3, 4, 5])
          expect(updates.map((frame) => frame.asOf.slot)).toEqual([1_010, 1_020, 1_030, 1_040, 1_050])
        }
        const lastVault = seen.get(vaultTopic)!.at(-1)!
        expect(lastVault.data.totalShares).toBe("1105000000")
        const restAfter = yield* restRead(`/v2/vault/${VAULT}`)
        expect(lastVault.asOf).toEqual(restAfter.asOf)
        expect(lastVault.data).toEqual(restAfter.data)
        const balanceAfter = yield* restRead(`/v2/vault/${VAULT}/user/${WALLET}/balance`)
        expect(seen.get(userTopic)!.at(-1)!.data).toEqual(balanceAfter.data)

        // Another vault's change reaches none of these topics but the slot.
        fixture.state.asOf = { slot: 1_060, blockTime: 1_800_000_024 }
        yield* control.publish({ slot: 1_060, version: 6, changes: [{ _tag: "VaultChanged", vault: OTHER_VAULT }] })
        expect(yield* client.next).toMatchObject({ type: "update", topic: "slots", seq: 6, data: { slot: 1_060 } })
        // More changes in the same slot: `slots` does not move.
        yield* control.publish({ slot: 1_060, version: 7, changes: [{ _tag: "VaultChanged", vault: OTHER_VAULT }] })
        expect(yield* client.nothingWithin(100)).toBe(true)

        // A second subscriber starts from the topic's current seq; both then get the same next update.
        const late = yield* connect()
        late.send({ op: "subscribe", id: "late", topics: [vaultTopic] })
        expect(yield* late.next).toMatchObject({ type: "subscribed", id: "late", topic: vaultTopic, seq: 5 })
        fixture.state.asOf = { slot: 1_070, blockTime: 1_800_000_028 }
        yield* control.publish({ slot: 1_070, version: 8, changes: [{ _tag: "VaultChanged", vault: VAULT }] })
        expect(yield* late.next).toMatchObject({ type: "update", topic: vaultTopic, seq: 6 })
        const first = yield* framesByTopic(client, 3)
        expect(first.get(vaultTopic)![0]).toMatchObject({ type: "update", seq: 6 })

        client.send({ op: "unsubscribe", id: 8, topics: [vaultTopic, userTopic, "slots"] })
        expect(yield* client.next).toEqual({ type: "unsubscribed", id: 8, topics: [vaultTopic, userTopic, "slots"] })
      }))
  })
})

describe("/v2/stream client errors", () => {
  layer(
    streamGatewayForTest({ state: makeFixture().state, initial: liveStatus(1_000), limits: { maxTopicsPerConnection: 2, maxMessageBytes: 512 } }),
    { excludeTestServices: true }
  )((it) => {
    it.scoped("malformed JSON, unknown ops, unknown topics, too many topics and oversized messages get error frames; the connection stays usable", () =>
      Effect.gen(function*() {
        const client = yield* connect()
        client.sendRaw("{not json")
        expect(yield* client.next).toMatchObject({ type: "error", code: "MALFORMED_JSON" })
        client.send({ op: "publish", id: 1 })
        expect(yield* client.next).toMatchObject({ type: "error", id: 1, code: "UNKNOWN_OP" })
        client.send({ op: "subscribe", id: 2, topics: ["vault:not-an-address"] })
        expect(yield* client.next).toMatchObject({ type: "error", id: 2, code: "UNKNOWN_TOPIC" })
        client.send({ op: "subscribe", id: 3, topics: ["referrer:x", "status"] })
        expect(yield* client.next).toMatchObject({ type: "error", id: 3, code: "UNKNOWN_TOPIC" })
        client.send({ op: "subscribe", id: 4, topics: "status" })
        expect(yield* client.next).toMatchObject({ type: "error", id: 4, code: "INVALID_MESSAGE" })
        client.send({ op: "subscribe", id: 5, topics: [`vault:${NOT_A_VAULT}`] })
        expect(yield* client.next).toMatchObject({ type: "error", id: 5, code: "VAULT_NOT_FOUND" })
        client.send({ op: "subscribe", id: 6, topics: [`vault:${VAULT}`, `vault:${OTHER_VAULT}`, "status"] })
        expect(yield* client.next).toMatchObject({ type: "error", id: 6, code: "TOO_MANY_TOPICS" })
        client.sendRaw(JSON.stringify({ op: "ping", pad: "x".repeat(600) }))
        expect(yield* client.next).toMatchObject({ type: "error", code: "MESSAGE_TOO_LARGE" })
        client.send({ op: "subscribe", id: 9, topics: [`vault:${VAULT}`, "status"] })
        const accepted = yield* framesByTopic(client, 2)
        expect(accepted.get(`vault:${VAULT}`)![0]).toMatchObject({ type: "subscribed", id: 9 })
        expect(accepted.get("status")![0]).toMatchObject({ type: "subscribed", id: 9, data: { status: "live" } })
        client.send({ op: "ping" })
        expect(yield* client.next).toEqual({ type: "pong" })
      }))
  })
})

describe("/v2/stream while the projection is not live", () => {
  layer(streamGatewayForTest({ state: makeFixture().state }), { excludeTestServices: true })((it) => {
    it.scoped("data topics get a status instead of zeros, then their snapshot once it is live", () =>
      Effect.gen(function*() {
        const control = yield* ProjectionControl
        const client = yield* connect()
        client.send({ op: "subscribe", id: 1, topics: [`vault:${VAULT}`] })
        expect(yield* client.next).toMatchObject({ type: "status", data: { status: "starting" } })
        expect(yield* client.nothingWithin(100)).toBe(true)
        yield* control.setStatus(liveStatus(1_000))
        expect(yield* client.next).toMatchObject({ type: "status", data: { status: "live" } })
        const snapshot = yield* client.next
        expect(snapshot).toMatchObject({ type: "subscribed", topic: `vault:${VAULT}`, seq: 0, asOf: { slot: 1_000 } })
        expect(snapshot.data.bundleKey).toBe(VAULT)

        // Back to not live: a phase status, and updates stop (the topic is held again).
        yield* control.setStatus({ ...liveStatus(1_000), status: "degraded", reason: "chain stream disconnected" })
        expect(yield* client.next).toMatchObject({ type: "status", data: { status: "degraded" } })
        yield* control.publish({ slot: 1_001, version: 1, changes: [{ _tag: "VaultChanged", vault: VAULT }] })
        expect(yield* client.nothingWithin(100)).toBe(true)
      }))
  })
})

describe("/v2/stream builder summaries", () => {
  const BUILDER = "Es9vMFrzaCERmJfrF4H2FYD4KCoNkY11McCe8BenwNYB" as Address
  const REFERRED = "7vfCXTUXx5WJV5JADk17DUJ4ksgau7utNKj4b963voxs" as Address
  const fixture = makeFixture().position(VAULT, REFERRED, { shares: 9_000_000n, referrer: BUILDER })
  putReferrer(fixture.state, VAULT, BUILDER, { accruedMfeeShares: 1_000_000n })
  layer(streamGatewayForTest({ state: fixture.state, initial: liveStatus(1_000) }), { excludeTestServices: true })((it) => {
    it.scoped("referrer:<address>: the REST summary as snapshot, then an update on the builder's and on vault changes", () =>
      Effect.gen(function*() {
        const control = yield* ProjectionControl
        const client = yield* connect()
        const topic = `referrer:${BUILDER}`
        client.send({ op: "subscribe", id: 1, topics: [topic] })
        const snapshot = yield* client.next
        expect(snapshot).toMatchObject({ type: "subscribed", topic, seq: 0 })
        expect(snapshot.data.vaults).toHaveLength(1)
        expect(snapshot.data).toEqual((yield* restRead(`/v2/referrer/${BUILDER}/summary`)).data)

        putReferrer(fixture.state, VAULT, BUILDER, { accruedMfeeShares: 2_000_000n })
        fixture.state.asOf = { slot: 1_001, blockTime: 1_800_000_004 }
        yield* control.publish({ slot: 1_001, version: 1, changes: [{ _tag: "ReferrerChanged", wallet: BUILDER, vault: VAULT }] })
        const update = yield* client.next
        expect(update).toMatchObject({ type: "update", topic, seq: 1, asOf: { slot: 1_001 } })
        expect(update.data.vaults[0].accruedMfeeShares.raw).toBe("2000000")
        const rest = yield* restRead(`/v2/referrer/${BUILDER}/summary`)
        expect(update.data).toEqual(rest.data)
        expect(update.asOf).toEqual(rest.asOf)

        // A vault change that leaves the summary as it was sends nothing; one that moves it (the share price) does.
        yield* control.publish({ slot: 1_002, version: 2, changes: [{ _tag: "VaultChanged", vault: VAULT }] })
        expect(yield* client.nothingWithin(100)).toBe(true)
        fixture.vault(VAULT, { bundle: { ...bundle(1_100_000_000n), bundleUnderlyingBalance: 9_000_000_000n }, oracle })
        putReferrer(fixture.state, VAULT, BUILDER, { accruedMfeeShares: 2_000_000n })
        yield* control.publish({ slot: 1_003, version: 3, changes: [{ _tag: "VaultChanged", vault: VAULT }] })
        const moved = yield* client.next
        expect(moved).toMatchObject({ type: "update", topic, seq: 2 })
        expect(moved.data.vaults[0].claimable).not.toEqual(update.data.vaults[0].claimable)
      }))
  })
})

describe("/v2/stream values that move with chain time", () => {
  const fixture = makeFixture()
  layer(streamGatewayForTest({ state: fixture.state, initial: liveStatus(1_000) }), { excludeTestServices: true })((it) => {
    it.scoped("newer chain time with no account change still updates a value derived from it (the oracle's age), once", () =>
      Effect.gen(function*() {
        const control = yield* ProjectionControl
        const client = yield* connect()
        const topic = `vault:${VAULT}`
        client.send({ op: "subscribe", id: 1, topics: [topic] })
        const snapshot = yield* client.next
        expect(snapshot).toMatchObject({ type: "subscribed", topic, seq: 0 })
        fixture.state.asOf = { slot: 1_005, blockTime: 1_800_000_010 }
        yield* control.setStatus(liveStatus(1_005))
        const update = yield* client.next
        expect(update).toMatchObject({ type: "update", topic, seq: 1, asOf: { slot: 1_005, blockTime: 1_800_000_010 } })
        expect(update.data.oracleAgeSeconds).toBe(snapshot.data.oracleAgeSeconds + 10)
        const rest = yield* restRead(`/v2/vault/${VAULT}`)
        expect(update.data).toEqual(rest.data)
        // Another status at the same slot, or a newer slot in the same second: no pass over the topics, nothing is sent.
        yield* control.setStatus(liveStatus(1_005, { lagSlots: 7 }))
        fixture.state.asOf = { slot: 1_006, blockTime: 1_800_000_010 }
        yield* control.setStatus(liveStatus(1_006))
        expect(yield* client.nothingWithin(150)).toBe(true)
      }))
  })
})

describe("/v2/stream values that move with chain time, many topics", () => {
  const vaults = Array.from({ length: 150 }, () => getAddressDecoder().decode(randomBytes(32)))
  const fixture = new VaultStateFixture({ slot: 1_000, blockTime: 1_800_000_000 })
  for (const vault of vaults) fixture.vault(vault, { bundle: bundle(1_000_000n), oracle })
  layer(streamGatewayForTest({ state: fixture.state, initial: liveStatus(1_000) }), { excludeTestServices: true })((it) => {
    it.scoped("the pass over the followed topics (done in slices) reaches every one of them, once", () =>
      Effect.gen(function*() {
        const control = yield* ProjectionControl
        const client = yield* connect()
        client.send({ op: "subscribe", id: 1, topics: vaults.map((vault) => `vault:${vault}`) })
        for (const _ of vaults) expect(yield* client.next).toMatchObject({ type: "subscribed", seq: 0 })
        fixture.state.asOf = { slot: 1_003, blockTime: 1_800_000_002 }
        yield* control.setStatus(liveStatus(1_003))
        const updates = yield* Effect.forEach(vaults, () => client.next)
        expect(updates.every((frame) => frame.type === "update" && frame.seq === 1 && frame.asOf.blockTime === 1_800_000_002)).toBe(true)
        expect(new Set(updates.map((frame) => frame.topic))).toEqual(new Set(vaults.map((vault) => `vault:${vault}`)))
        expect(yield* client.nothingWithin(150)).toBe(true)
      }))
  })
})
