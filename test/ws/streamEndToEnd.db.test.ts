import { HttpApi } from "@effect/platform"
import { describe, expect, it } from "@effect/vitest"
import type { Address } from "@solana/kit"
import { Context, Duration, Effect, Layer } from "effect"
import { CohortEventLogLive } from "../../layers/postgres/CohortEventLogLive.ts"
import { ApiRoutesLive } from "../../layers/uws/ApiRoutes.ts"
import { HttpListener } from "../../layers/uws/HttpServer.ts"
import { WsStreamLive } from "../../layers/uws/wsStream.ts"
import { Projection } from "../../services/Projection.ts"
import { NoPricesLive } from "../../layers/memory/PricesLive.ts"
import { BadRequestResponse, InternalErrorResponse } from "../../src/api/errors.ts"
import { ReferrersApi } from "../../src/api/referrers/ReferrersApi.ts"
import { ReferrersHandlersLive } from "../../src/api/referrers/ReferrersHandlers.ts"
import { UsersApi } from "../../src/api/users/UsersApi.ts"
import { UsersHandlersLive } from "../../src/api/users/UsersHandlers.ts"
import { VaultsApi } from "../../src/api/vaults/VaultsApi.ts"
import { VaultsHandlersLive } from "../../src/api/vaults/VaultsHandlers.ts"
import { ReferrerPayoutsLive } from "../../layers/postgres/ReferrerPayoutsLive.ts"
import { decodeAccount } from "../../src/ntbundle/accounts.ts"
import { ZERO_ADDRESS } from "../../src/ntbundle/blankAccounts.ts"
import { findUserBundlePda } from "../../src/ntbundle/pdas.ts"
import { NTBUNDLE_PROGRAM_ID } from "../../src/ntbundle/programs.ts"
import { fetchJson } from "../support/httpFetch.ts"
import { listenForTest } from "../../src/bench/support/httpTestServer.ts"
import {
  accountDifferences,
  liveIngestion,
  type ScenarioSandboxHandle,
  scenarioSandbox,
  settledAgainstTruth,
  stepSlots,
  truthNow
} from "../support/ingestHarness.ts"
import { PartnerKeyStandIn, TEST_PARTNER_KEY } from "../../src/bench/support/partnerKeyStandIn.ts"
import { connectStream, type Frame } from "./wsClient.ts"

// The three reads the stream's data topics mirror, under the gateway's API id so that its handlers serve them.
const StreamReadsApi = HttpApi.make("vault-gateway").add(VaultsApi).add(UsersApi).add(ReferrersApi)
  .addError(BadRequestResponse).addError(InternalErrorResponse)

const scenario = { seed: 11, users: 24, builders: 3, activity: 6, keeperIntervalSlots: 6 } as const
/** Wall time of sandbox activity while the client listens. */
const ACTIVITY_MS = 15_000
const MAX_SLOTS = 300
/** However slow the machine, at least this many slots of activity (within a minute). */
const MIN_SLOTS = 40
const SLOT_EVERY_MS = 25
const LEAD = 3

const keyed = { headers: { "x-api-key": TEST_PARTNER_KEY } }

/** An attributed position with shares: its wallet, its vault and its builder. */
const pickFollowed = (accounts: ReadonlyMap<string, string>) => {
  const vaults: Array<string> = []
  const positions: Array<{ address: string; owner: string; referrer: string; shares: bigint }> = []
  for (const [address, data] of accounts) {
    const decoded = decodeAccount(Buffer.from(data, "base64"))
    if (decoded._tag !== "Right") continue
    if (decoded.right.type === "Bundle") vaults.push(address)
    if (decoded.right.type === "UserBundleAccount") positions.push({ address, ...decoded.right.data })
  }
  for (const position of positions) {
    if (position.referrer === ZERO_ADDRESS || position.shares === 0n) continue
    const vault = vaults.find((candidate) =>
      findUserBundlePda(NTBUNDLE_PROGRAM_ID, position.owner as Address, candidate as Address)[0] === position.address)
    if (vault !== undefined) return { vault, wallet: position.owner, builder: position.referrer }
  }
  throw new Error("the scenario made no attributed position with shares")
}

/** Waits until the projection holds the chain's accounts, without stepping the chain (which would bring activity). */
const caughtUpWithoutStepping = (sandbox: ScenarioSandboxHandle, projection: Projection["Type"]) =>
  Effect.gen(function*() {
    for (let attempt = 0; attempt < 300; attempt++) {
      const truth = yield* Effect.promise(() => truthNow(sandbox))
      const projected = yield* projection.read((state) => new Map(state.accounts)).pipe(Effect.orElseSucceed(() => null))
      if (projected !== null && accountDifferences(truth.accounts, projected).length === 0) return truth
      yield* Effect.sleep(Duration.millis(100))
    }
    return yield* Effect.die(new Error("the projection never caught up with the still chain"))
  })

describe("/v2/stream against the sandbox chain", () => {
  it.live("a vault, a builder and a user: snapshots, then gapless updates following the chain's activity; the last equals the REST reads", () =>
    Effect.gen(function*() {
      const sandbox = yield* scenarioSandbox(scenario)
      const { ingest, projection } = yield* liveIngestion(sandbox)
      // A few keeper runs: first deposits become shares. Then the chain stands still (no slot is stepped).
      yield* stepSlots(sandbox, 4 * scenario.keeperIntervalSlots)
      const { vault, wallet, builder } = pickFollowed((yield* caughtUpWithoutStepping(sandbox, projection)).accounts)

      const handlers = Layer.mergeAll(VaultsHandlersLive, UsersHandlersLive, ReferrersHandlersLive.pipe(Layer.provide(Layer.merge(ReferrerPayoutsLive, CohortEventLogLive))))
      const routes = Layer.merge(ApiRoutesLive(StreamReadsApi), WsStreamLive()).pipe(
        Layer.provide(Layer.merge(handlers, PartnerKeyStandIn)),
        Layer.provide(NoPricesLive)
      )
      const server = yield* Layer.build(listenForTest(routes).pipe(Layer.provide(Layer.succeedContext(ingest))))
      const url = Context.get(server, HttpListener).url
      const paths = {
        [`vault:${vault}`]: `/v2/vault/${vault}`,
        [`referrer:${builder}`]: `/v2/referrer/${builder}/summary`,
        [`user:${vault}:${wallet}`]: `/v2/vault/${vault}/user/${wallet}/balance`
      }
      const dataTopics = Object.keys(paths)

      const client = yield* connectStream(url, { "x-api-key": TEST_PARTNER_KEY })
      client.send({ op: "subscribe", id: "e2e", topics: [...dataTopics, "slots"] })
      const snapshots = new Map<string, Frame>()
      for (let i = 0; i < 4; i++) {
        const frame = yield* client.next
        expect(frame).toMatchObject({ type: "subscribed", id: "e2e" })
        snapshots.set(frame.topic, frame)
      }
      // The chain is still (no slot stepped): each snapshot is the REST read at the same asOf.
      for (const topic of dataTopics) {
        const rest = yield* fetchJson(`${url}${paths[topic]}`, keyed)
        expect(rest.status).toBe(200)
        expect(snapshots.get(topic)!.asOf).toEqual(rest.body.asOf)
        expect(snapshots.get(topic)!.data).toEqual(rest.body.data)
      }
      expect(snapshots.get(`user:${vault}:${wallet}`)!.data).not.toBeNull()

      // Activity: users deposit and withdraw, the keeper processes and charges fees, slot after slot.
      // The chain runs as fast as the gateway ingests it (at most LEAD slots ahead), for ACTIVITY_MS and
      // at least MIN_SLOTS, at most MAX_SLOTS.
      const started = Date.now()
      let chainSlot = 0
      const enough = (stepped: number) => (stepped >= MIN_SLOTS && Date.now() - started >= ACTIVITY_MS) || Date.now() - started >= 60_000
      for (let stepped = 0; stepped < MAX_SLOTS && !enough(stepped);) {
        const projected = (yield* projection.status).asOf?.slot ?? 0
        if (chainSlot - projected <= LEAD) {
          chainSlot = sandbox.handle.step(1)
          stepped++
        }
        yield* Effect.sleep(Duration.millis(SLOT_EVERY_MS))
      }
      const activityMs = Date.now() - started
      sandbox.scenario.stop()
      yield* stepSlots(sandbox, 3)
      const { truth } = yield* settledAgainstTruth(sandbox).pipe(Effect.provide(ingest))
      // The fan-out of the last changes, then nothing more moves.
      yield* Effect.sleep(Duration.millis(300))
      const frames = yield* client.takeAll

      expect(frames.filter((frame) => frame.type !== "update")).toEqual([])
      const updates = new Map<string, Array<Frame>>()
      for (const frame of frames) updates.set(frame.topic, [...(updates.get(frame.topic) ?? []), frame])
      const counts = Object.fromEntries([...updates].map(([topic, list]) => [topic.split(":")[0], list.length]))
      console.log(`stream end-to-end: ${frames.length} updates over ${chainSlot - snapshots.get("slots")!.asOf.slot} slots in ${activityMs} ms`, counts)
      for (const topic of [...dataTopics, "slots"]) {
        const list = updates.get(topic) ?? []
        // The chain moved every followed value many times.
        expect(list.length, topic).toBeGreaterThanOrEqual(topic.startsWith("referrer:") || topic === "slots" ? 20 : 8)
        // No gap over the run: seq one higher each time, from the snapshot's.
        const base = snapshots.get(topic)!.seq as number
        expect(list.map((frame) => frame.seq), topic).toEqual(list.map((_, index) => base + index + 1))
        // In slot order.
        const slots = list.map((frame) => frame.asOf.slot as number)
        expect(slots, topic).toEqual([...slots].sort((a, b) => a - b))
        expect(slots[0]!, topic).toBeGreaterThanOrEqual(snapshots.get(topic)!.asOf.slot)
      }

      // Quiesced: the projection equals the chain's truth, and the last update of each topic equals
      // the REST read (which may be stamped with a later, empty slot: no change followed the update).
      expect((yield* projection.status).asOf!.slot).toBeGreaterThanOrEqual(truth.slot - 1)
      for (const topic of dataTopics) {
        const last = updates.get(topic)!.at(-1)!
        const rest = yield* fetchJson(`${url}${paths[topic]}`, keyed)
        expect(rest.body.data, topic).toEqual(last.data)
        expect(rest.body.asOf.slot, topic).toBeGreaterThanOrEqual(last.asOf.slot)
      }
      expect(updates.get("slots")!.at(-1)!.data.slot).toBeLessThanOrEqual((yield* projection.status).asOf!.slot)
    }).pipe(Effect.scoped), 150_000)
})
