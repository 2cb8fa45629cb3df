import { type Address, getAddressDecoder } from "@solana/kit"
import { randomBytes } from "node:crypto"
import { writeFileSync } from "node:fs"
import { Session } from "node:inspector/promises"
import os from "node:os"
import { Context, Effect, Layer, Stream } from "effect"
import { ProjectionLive } from "../../layers/projection/ProjectionLive.ts"
import { HttpListener } from "../../layers/uws/HttpServer.ts"
import type { WsHub } from "../../layers/uws/wsHub.ts"
import { WsStreamLive } from "../../layers/uws/wsStream.ts"
import { type AccountUpdated, type ChainEvent, ChainSource } from "../../services/ChainSource.ts"
import { NoPricesLive } from "../../layers/memory/PricesLive.ts"
import { Projection } from "../../services/Projection.ts"
import { encodeAccount } from "../ntbundle/accounts.ts"
import { blankBundle, blankBundleTempData, blankOracleData, blankUserBundleAccount } from "../ntbundle/blankAccounts.ts"
import { findBundleTempDataPda, findOraclePda, findUserBundlePda } from "../ntbundle/pdas.ts"
import { NTBUNDLE_PROGRAM_ID } from "../ntbundle/programs.ts"
import { registryVaults } from "../ntbundle/registry.ts"
import { listenForTest } from "./support/httpTestServer.ts"
import { memoryChainStore } from "./support/memoryChainStore.ts"
import { PartnerKeyStandIn } from "./support/partnerKeyStandIn.ts"
import { scriptedChainSource } from "./support/scriptedChainSource.ts"
import { type ClientReport, idlePolicyAvailable, startClients } from "./wsFanout.ts"

/**
 * `/v2/stream` server-side latency: chain notification received -> WebSocket frame handed to uWS.
 *
 * The real projection (ProjectionLive) ingests a scripted chain stream of RATE account updates per
 * second (vault bundles and user positions, real account layouts, each one changing what it moves;
 * a slot every 400 ms); the ChainSource layer is wrapped so that the time each AccountUpdated is
 * yielded to the projection is recorded, and the hub's publish hook records when the frame of the
 * topic of the account that notification changed is published (and when the round that published
 * it, with the positions and summaries it re-priced, ended). CLIENTS WebSocket clients follow vault,
 * user and builder topics and check `seq`: in child processes at the lowest CPU priority (the idle
 * scheduling policy where chrt is available), standing in for partners on other machines (on a small
 * machine they would otherwise take the server's cores).
 *
 *   npx tsx src/bench/wsLatency.ts   (BENCH_CLIENTS, BENCH_RATE, BENCH_SECONDS to change the load;
 *   BENCH_CPU_PROFILE=<file> writes a CPU profile of the measured window only, without set-up)
 */

const TICK_MS = 10
const SLOT_MS = 400
const WARMUP_MS = 1_000
const CLIENT_PROCESSES = 4
const POSITIONS = 5_000
const BUILDERS = 10
const USDC = "EPjFWdd5AufqSSqeM2qN1xzybapC8G4wEGGkZwyTDt1v" as Address
const program = NTBUNDLE_PROGRAM_ID

const now = () => performance.now()
const randomAddress = (): Address => getAddressDecoder().decode(randomBytes(32))
const percentile = (sorted: ReadonlyArray<number>, p: number) => sorted[Math.min(sorted.length - 1, Math.floor(sorted.length * p))] ?? NaN
const ms = (value: number) => Number(value.toFixed(2))

/** A notification as the bench offers it: with the time it was handed to the chain source. */
interface Offered extends AccountUpdated {
  readonly offeredAt: number
}

/** One account's two encodings, alternated so that every notification changes the account. */
interface Alternating {
  readonly address: string
  readonly topic: string
  readonly variants: readonly [Uint8Array, Uint8Array]
  sent: number
}

export const chainFixture = () => {
  const vaults = registryVaults("mainnet").filter((vault) => vault.mainLayout).map((vault) => vault.address as Address)
  const builders = Array.from({ length: BUILDERS }, randomAddress)
  const bundle = (totalShares: bigint) =>
    encodeAccount({
      type: "Bundle",
      data: blankBundle({ assetAddress: USDC, assetDecimals: 6, totalShares, bundleUnderlyingBalance: totalShares * 2n })
    })
  const vaultAccounts: Array<Alternating> = vaults.map((vault) => ({
    address: vault,
    topic: `vault:${vault}`,
    variants: [bundle(1_000_000_000n), bundle(1_000_000_001n)],
    sent: 0
  }))
  const positions: Array<Alternating> = Array.from({ length: POSITIONS }, (_, i) => {
    const owner = randomAddress()
    const vault = vaults[i % vaults.length]!
    const position = (shares: bigint) =>
      encodeAccount({
        type: "UserBundleAccount",
        data: blankUserBundleAccount(owner, { shares, netDeposits: 1_000_000n, ...(i % 3 === 0 ? { referrer: builders[i % BUILDERS]! } : {}) })
      })
    return {
      address: findUserBundlePda(program, owner, vault)[0],
      topic: `user:${vault}:${owner}`,
      variants: [position(1_000_000n + BigInt(i)), position(1_000_001n + BigInt(i))],
      sent: 0
    }
  })
  const fixed = vaults.flatMap((vault) => [
    { address: findOraclePda(program, vault)[0], data: encodeAccount({ type: "OracleData", data: blankOracleData({ averageExternalEquity: 1_000_000_000n, lastUpdateTime: 1_800_000_000n }) }) },
    { address: findBundleTempDataPda(program, vault)[0], data: encodeAccount({ type: "BundleTempData", data: blankBundleTempData() }) }
  ])
  return { vaults, builders, vaultAccounts, positions, fixed }
}

export const run = async (options: { readonly metrics?: boolean } = {}): Promise<Record<string, number>> => {
  const clients = Number(process.env.BENCH_CLIENTS ?? 1_000)
  const rate = Number(process.env.BENCH_RATE ?? 5_000)
  const seconds = Number(process.env.BENCH_SECONDS ?? 6)
  const fixture = chainFixture()

  // Followed topics: 40 % vaults, 50 % positions (distinct ones), 10 % builders.
  const vaultClients = Math.round(clients * 0.4)
  const builderClients = Math.round(clients * 0.1)
  const userClients = clients - vaultClients - builderClients
  const topics = [
    ...Array.from({ length: vaultClients }, (_, i) => fixture.vaultAccounts[i % fixture.vaultAccounts.length]!.topic),
    ...fixture.positions.slice(0, userClients).map((position) => position.topic),
    ...Array.from({ length: builderClients }, (_, i) => `referrer:${fixture.builders[i % BUILDERS]}`)
  ]
  const followed = new Set(topics)

  // Measurement: per topic, the notifications received and not yet published.
  let measuring = false
  const pending = new Map<string, Array<{ readonly receivedAt: number; readonly offeredAt: number }>>()
  const primaryTopic = new Map<string, string>()
  for (const account of [...fixture.vaultAccounts, ...fixture.positions]) {
    if (followed.has(account.topic)) primaryTopic.set(account.address, account.topic)
  }
  const receivedToSent: Array<number> = []
  // The same notifications, to the end of the round that published their topic: every frame they
  // moved (the positions and builder summaries a vault update re-prices go out after the vault's own).
  const receivedToRoundEnd: Array<number> = []
  const publishedThisRound: Array<number> = []
  const offeredToSent: Array<number> = []
  let framesPublished = 0
  let fanoutMessages = 0

  const received = (event: ChainEvent, at: number) => {
    if (!measuring || event._tag !== "AccountUpdated") return
    const topic = primaryTopic.get(event.address)
    if (topic === undefined) return
    let list = pending.get(topic)
    if (list === undefined) pending.set(topic, list = [])
    list.push({ receivedAt: at, offeredAt: (event as Offered).offeredAt })
  }
  // The hub's own CPU time per fan-out round (what the server needs, whatever the machine's load).
  const roundMs: Array<number> = []
  const instrument = (hub: WsHub) => {
    const publishUpdates = hub.publishUpdates.bind(hub)
    hub.publishUpdates = (topics) => {
      // CPU time, not wall time: on a loaded machine the process is descheduled in the middle of rounds.
      const started = process.cpuUsage()
      publishUpdates(topics)
      if (measuring) {
        const used = process.cpuUsage(started)
        roundMs.push((used.user + used.system) / 1_000)
        const at = now()
        for (const receivedAt of publishedThisRound) receivedToRoundEnd.push(at - receivedAt)
      }
      publishedThisRound.length = 0
    }
    hub.onPublish = (topic) => {
      if (!measuring) return
      const at = now()
      framesPublished++
      fanoutMessages += hub.app.numSubscribers(topic)
      const list = pending.get(topic)
      if (list === undefined || list.length === 0) return
      for (const entry of list) {
        receivedToSent.push(at - entry.receivedAt)
        publishedThisRound.push(entry.receivedAt)
        offeredToSent.push(at - entry.offeredAt)
      }
      list.length = 0
    }
  }

  const bench = Effect.gen(function*() {
    const chain = yield* scriptedChainSource(program)
    const store = yield* memoryChainStore()
    // The ChainSource wrapped: the moment each event is yielded to the projection is "received".
    const tapped = Layer.effect(
      ChainSource,
      Effect.map(ChainSource, (source) =>
        ChainSource.of({
          ...source,
          events: (resume) =>
            source.events(resume).pipe(Stream.mapChunks((chunk) => {
              const at = now()
              for (const event of chunk) received(event, at)
              return chunk
            }))
        }))
    ).pipe(Layer.provide(chain.layer))
    const projectionLayer = ProjectionLive().pipe(Layer.provide(Layer.merge(tapped, store.layer)))
    const server = listenForTest(WsStreamLive({ limits: { maxConnectionsPerKey: clients }, observe: instrument, meter: options.metrics === true }).pipe(
      Layer.provide(Layer.merge(PartnerKeyStandIn, NoPricesLive))
    )).pipe(Layer.provideMerge(projectionLayer))
    const context = yield* Layer.build(server)
    const projection = Context.get(context, Projection)
    const { url } = Context.get(context, HttpListener)

    // The program's accounts as a snapshot, then live.
    let slot = 10
    const snapshot: Array<ChainEvent> = [
      ...fixture.fixed.map(({ address, data }): AccountUpdated => ({ _tag: "AccountUpdated", address, owner: program, slot, data })),
      ...[...fixture.vaultAccounts, ...fixture.positions].map(({ address, variants }): AccountUpdated => ({
        _tag: "AccountUpdated",
        address,
        owner: program,
        slot,
        data: variants[0]
      }))
    ]
    const addresses = new Set(snapshot.map((event) => (event as AccountUpdated).address))
    yield* chain.send({ _tag: "SnapshotStarted", slot }, ...snapshot, { _tag: "SnapshotEnded", slot, addresses })
    yield* chain.send({ _tag: "TransactionsComplete", signature: "seam", slot }, { _tag: "SlotAdvanced", slot: ++slot, completedBlockTime: 1_800_000_000 })
    while (projection.currentStatus().status !== "live") yield* Effect.sleep(20)

    const perProcess = Math.ceil(clients / CLIENT_PROCESSES)
    const children = Array.from({ length: CLIENT_PROCESSES }, (_, p) => startClients(url, topics.slice(p * perProcess, (p + 1) * perProcess), 0, { lowPriority: true }))
    yield* Effect.promise(() => Promise.all(children.map((child) => child.ready)))

    // The load: RATE notifications per second in TICK_MS steps (one vault in ten, positions round robin).
    const started = now()
    let nextSlotAt = started + SLOT_MS
    let offered = 0
    let offeredMeasured = 0
    let measureStart = 0
    let cpuStart = process.cpuUsage()
    const loadAverage = os.loadavg()[0]!
    let vaultTurn = 0
    let positionTurn = 0
    const profileFile = process.env.BENCH_CPU_PROFILE
    const profiler = profileFile === undefined ? null : new Session()
    while (now() - started < WARMUP_MS + seconds * 1_000) {
      if (!measuring && now() - started >= WARMUP_MS) {
        measuring = true
        measureStart = now()
        cpuStart = process.cpuUsage()
        offeredMeasured = offered
        if (profiler !== null) {
          profiler.connect()
          yield* Effect.promise(() => profiler.post("Profiler.enable").then(() => profiler.post("Profiler.start")))
        }
      }
      const due = Math.floor(((now() - started) * rate) / 1_000)
      const events: Array<ChainEvent> = []
      const offeredAt = now()
      for (; offered < due; offered++) {
        const account = offered % 10 === 0
          ? fixture.vaultAccounts[vaultTurn++ % fixture.vaultAccounts.length]!
          : fixture.positions[positionTurn++ % fixture.positions.length]!
        // Fresh bytes, as every notification brings (nothing downstream may key on the buffer).
        const data = account.variants[++account.sent & 1]!.slice()
        const event: Offered = { _tag: "AccountUpdated", address: account.address, owner: program, slot, data, offeredAt }
        events.push(event)
      }
      if (now() >= nextSlotAt) {
        nextSlotAt += SLOT_MS
        events.push({ _tag: "SlotAdvanced", slot: ++slot, completedBlockTime: 1_800_000_000 + Math.floor(((slot - 11) * SLOT_MS) / 1_000) })
      }
      yield* chain.send(...events)
      yield* Effect.sleep(TICK_MS)
    }
    measuring = false
    const cpu = process.cpuUsage(cpuStart)
    const elapsed = (now() - measureStart) / 1_000
    const elapsedWithWarmup = (now() - started) / 1_000
    const notifications = offered - offeredMeasured
    if (profiler !== null) {
      const { profile } = yield* Effect.promise(() => profiler.post("Profiler.stop"))
      writeFileSync(profileFile!, JSON.stringify(profile))
      profiler.disconnect()
    }
    yield* Effect.sleep(500)
    const reports: Array<ClientReport> = yield* Effect.promise(() => Promise.all(children.map((child) => child.report())))

    roundMs.sort((a, b) => a - b)
    receivedToSent.sort((a, b) => a - b)
    receivedToRoundEnd.sort((a, b) => a - b)
    offeredToSent.sort((a, b) => a - b)
    const clientFrames = reports.reduce((sum, report) => sum + report.frames, 0)
    return {
      clients,
      "client processes under the idle CPU policy (1) or at nice 19 (0)": idlePolicyAvailable() ? 1 : 0,
      vaultTopics: new Set(topics.slice(0, vaultClients)).size,
      userTopics: userClients,
      builderTopics: Math.min(builderClients, BUILDERS),
      "notifications/s offered": Math.round(notifications / elapsed),
      "latency samples (notifications of followed vaults/positions)": receivedToSent.length,
      "received -> frame published p50 ms": ms(percentile(receivedToSent, 0.5)),
      "received -> frame published p90 ms": ms(percentile(receivedToSent, 0.9)),
      "received -> frame published p99 ms (target <= 5)": ms(percentile(receivedToSent, 0.99)),
      "received -> frame published max ms": ms(receivedToSent.at(-1) ?? NaN),
      "received -> round done (every frame it moved) p50 ms": ms(percentile(receivedToRoundEnd, 0.5)),
      "received -> round done (every frame it moved) p99 ms": ms(percentile(receivedToRoundEnd, 0.99)),
      "offered -> frame published p50 ms (incl. source queue)": ms(percentile(offeredToSent, 0.5)),
      "offered -> frame published p99 ms (incl. source queue)": ms(percentile(offeredToSent, 0.99)),
      "fan-out rounds/s": Math.round(roundMs.length / elapsed),
      "fan-out round CPU time p50 ms": ms(percentile(roundMs, 0.5)),
      "fan-out round CPU time p99 ms": ms(percentile(roundMs, 0.99)),
      "server process CPU ms per s (1000 = one core)": Math.round((cpu.user + cpu.system) / 1_000 / elapsed),
      "server process CPU us per notification": Math.round((cpu.user + cpu.system) / notifications),
      "  of which kernel (socket writes) us per notification": Math.round(cpu.system / notifications),
      "machine load average (1 min) at start": Number(loadAverage.toFixed(1)),
      "frames encoded/s (once per topic)": Math.round(framesPublished / elapsed),
      "fan-out messages/s (server)": Math.round(fanoutMessages / elapsed),
      "frames received/s (clients, whole run)": Math.round(clientFrames / elapsedWithWarmup),
      seqGaps: reports.reduce((sum, report) => sum + report.gaps, 0),
      resyncs: reports.reduce((sum, report) => sum + report.resyncs, 0)
    }
  })
  return Effect.runPromise(Effect.scoped(bench))
}

if (import.meta.url === `file://${process.argv[1]}`) {
  console.table(await run())
  process.exit(0)
}
