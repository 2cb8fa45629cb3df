import { Parser } from "@asyncapi/parser"
import { describe, expect, layer } from "@effect/vitest"
import type { Address } from "@solana/kit"
import { Ajv, type ValidateFunction } from "ajv"
import { Effect } from "effect"
import { serverUrl } from "../../src/bench/support/httpTestServer.ts"
import { TEST_PARTNER_KEY } from "../../src/bench/support/partnerKeyStandIn.ts"
import { liveStatus, ProjectionControl } from "../../src/bench/support/projectionTest.ts"
import { putReferrer } from "../../src/bench/support/referrersFixture.ts"
import { VaultStateFixture } from "../../src/bench/support/vaultStateFixture.ts"
import { streamGatewayForTest } from "../../src/bench/support/wsTestServer.ts"
import { WS_ERROR_CODES } from "../../src/errors/codes.ts"
import { resyncFrame } from "../../src/ws/protocol.ts"
import { connectStream, type Frame } from "./wsClient.ts"

const VAULT = "J7qhMAKnB6G5dvoAN9281ufabajKbyGQxxd2bq6R7fPJ" as Address
const WALLET = "9WzDXwBbmkg8ZTbNMqUxvQRAyrZzDsGYdLVL9zYtAWWM" as Address
const NO_POSITION = "3NZ9JMVBmGAqocybic2c7LQCJScmgsAZ6vQqTDzcqmJh" as Address
const BUILDER = "Es9vMFrzaCERmJfrF4H2FYD4KCoNkY11McCe8BenwNYB" as Address
const REFERRED = "7vfCXTUXx5WJV5JADk17DUJ4ksgau7utNKj4b963voxs" as Address
const USDC = "EPjFWdd5AufqSSqeM2qN1xzybapC8G4wEGGkZwyTDt1v" as Address

const bundle = (totalShares: bigint) => ({
  assetAddress: USDC, assetDecimals: 6, assetPrecision: 1_000_000n, bundleUnderlyingBalance: 1_234_567_890n + totalShares, totalShares
})
const oracle = { averageExternalEquity: 765_432_110n, lastUpdateTime: 1_799_999_940n }
const fixture = new VaultStateFixture({ slot: 1_000, blockTime: 1_800_000_000 })
  .vault(VAULT, { bundle: bundle(1_100_000_000n), oracle })
  .position(VAULT, WALLET, { shares: 40_000_000n })
  .position(VAULT, REFERRED, { shares: 9_000_000n, referrer: BUILDER })
putReferrer(fixture.state, VAULT, BUILDER, { accruedMfeeShares: 1_000_000n })

const getJson = (path: string) =>
  Effect.flatMap(serverUrl, (url) => Effect.promise(() => fetch(`${url}${path}`).then(async (response) => ({ status: response.status, body: await response.json() as any }))))

/** The AsyncAPI parser's errors and warnings (it also gives hints, such as a newer version existing). */
const problems = (document: unknown) =>
  Effect.promise(async () => {
    const { diagnostics } = await new Parser().parse(JSON.stringify(document))
    return diagnostics.filter((diagnostic) => diagnostic.severity <= 1).map((diagnostic) => `${diagnostic.code}: ${diagnostic.message} at ${diagnostic.path.join(".")}`)
  })

/** One validator per message of the document, over its own payload schema and the shared definitions. */
const validators = (document: any): ReadonlyMap<string, ValidateFunction> => {
  const ajv = new Ajv({ strict: false, allErrors: true })
  const messages: Record<string, { payload: object }> = document.channels.stream.messages
  return new Map(Object.entries(messages).map(([name, message]) => [name, ajv.compile({ ...message.payload, components: document.components })]))
}

describe("/asyncapi.json", () => {
  layer(streamGatewayForTest({ state: fixture.state, initial: liveStatus(1_000) }), { excludeTestServices: true })((it) => {
    it.effect("is a valid AsyncAPI 3.0 document (the AsyncAPI parser), with the protocol's messages, operations and codes", () =>
      Effect.gen(function*() {
        const { body: document, status } = yield* getJson("/asyncapi.json")
        expect(status).toBe(200)
        expect(document.asyncapi).toBe("3.0.0")
        expect(yield* problems(document)).toEqual([])
        expect(Object.keys(document.channels.stream.messages).sort()).toEqual(
          ["error", "ping", "pong", "resync", "status", "subscribe", "subscribed", "unsubscribe", "unsubscribed", "update"]
        )
        expect(document.channels.stream.address).toBe("/v2/stream")
        expect(document.channels.stream["x-close-codes"].map((entry: { code: number }) => entry.code)).toEqual([1001, 1009, 4008])
        expect(document.components.schemas.WsErrorCode.enum).toEqual([...WS_ERROR_CODES])
        expect(document.operations.subscribe).toMatchObject({ action: "receive", reply: { messages: [{ $ref: "#/channels/stream/messages/subscribed" }, { $ref: "#/channels/stream/messages/error" }] } })
        // The REST records are the same definitions as in /openapi.json.
        expect(document.components.schemas.VaultRecord.required).toContain("bundleKey")

        // The validator is not a formality: a wrong action and a dangling reference are reported.
        const broken = structuredClone(document)
        broken.operations.ping.action = "publish"
        broken.operations.status.messages = [{ $ref: "#/channels/stream/messages/nothing" }]
        expect((yield* problems(broken)).length).toBeGreaterThanOrEqual(2)
      }))

    it.scoped("every frame of a real session validates against its documented message; client messages too", () =>
      Effect.gen(function*() {
        const { body: document } = yield* getJson("/asyncapi.json")
        const validate = validators(document)
        const control = yield* ProjectionControl
        const client = yield* Effect.flatMap(serverUrl, (url) => connectStream(url, { "x-api-key": TEST_PARTNER_KEY }))
        const sent: Array<[string, unknown]> = []
        const send = (name: string, message: unknown) => {
          sent.push([name, message])
          client.send(message)
        }
        const topics = [`vault:${VAULT}`, `user:${VAULT}:${WALLET}`, `user:${VAULT}:${NO_POSITION}`, `referrer:${BUILDER}`, "status", "slots"]
        send("subscribe", { op: "subscribe", id: 1, topics })
        const frames: Array<Frame> = []
        for (let i = 0; i < topics.length; i++) frames.push(yield* client.next)
        // Updates: a vault change moves the vault, its positions, the builder summary and the slot.
        fixture.vault(VAULT, { bundle: bundle(1_101_000_000n), oracle })
        fixture.state.asOf = { slot: 1_010, blockTime: 1_800_000_004 }
        yield* control.publish({ slot: 1_010, version: 1, changes: [{ _tag: "VaultChanged", vault: VAULT }] })
        for (let i = 0; i < 4; i++) frames.push(yield* client.next)
        // A phase change: a status frame and the status topic's update.
        yield* control.setStatus({ ...liveStatus(1_010), status: "degraded", reason: "chain stream disconnected" })
        for (let i = 0; i < 2; i++) frames.push(yield* client.next)
        yield* control.setStatus(liveStatus(1_010))
        send("ping", { op: "ping" })
        send("unsubscribe", { op: "unsubscribe", id: "u", topics: ["slots"] })
        client.sendRaw("{not json")
        client.send({ op: "shout" })
        client.send({ op: "subscribe", id: 2, topics: [] })
        client.send({ op: "subscribe", id: 3, topics: ["weather:today"] })
        for (;;) {
          const frame = yield* Effect.either(client.next)
          if (frame._tag === "Left") break
          frames.push(frame.right)
        }

        const types = new Set(frames.map((frame) => frame.type))
        for (const type of ["subscribed", "update", "status", "pong", "unsubscribed", "error"]) expect(types, type).toContain(type)
        expect(frames.filter((frame) => frame.type === "error").map((frame) => frame.code)).toEqual(
          expect.arrayContaining(["MALFORMED_JSON", "UNKNOWN_OP", "INVALID_MESSAGE", "UNKNOWN_TOPIC"])
        )
        expect(frames.some((frame) => frame.type === "subscribed" && frame.data === null)).toBe(true)
        for (const frame of frames) {
          const check = validate.get(frame.type)
          expect(check, `no message documented for ${frame.type}`).toBeDefined()
          expect(check!(frame), `${JSON.stringify(frame).slice(0, 300)}: ${JSON.stringify(check!.errors)}`).toBe(true)
        }
        for (const [name, message] of sent) expect(validate.get(name)!(message)).toBe(true)
        // resync needs a connection that stops reading (test/ws/backpressure.test.ts): its frame, as the server encodes it.
        expect(validate.get("resync")!(JSON.parse(resyncFrame([`vault:${VAULT}`, "slots"])))).toBe(true)

        // The schemas would catch a frame that strays from them.
        const vaultUpdate = frames.find((frame) => frame.type === "update" && frame.topic === `vault:${VAULT}`)!
        expect(validate.get("update")!({ ...vaultUpdate, data: { ...vaultUpdate.data, totalShares: 5 } })).toBe(false)
        expect(validate.get("update")!({ ...vaultUpdate, topic: `user:${VAULT}:${WALLET}` })).toBe(false)
        expect(validate.get("error")!({ type: "error", code: "NOT_A_CODE", message: "x" })).toBe(false)
        expect(validate.get("subscribe")!({ op: "subscribe", topics: [] })).toBe(false)
      }))
  })
})
