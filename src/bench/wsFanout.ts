import { spawn, spawnSync } from "node:child_process"
import os from "node:os"
import { fileURLToPath } from "node:url"
import type { Address } from "@solana/kit"
import { Effect, Layer } from "effect"
import WebSocket from "ws"
import { HttpListener } from "../../layers/uws/HttpServer.ts"
import { registryVaults } from "../ntbundle/registry.ts"
import { TEST_PARTNER_KEY } from "./support/partnerKeyStandIn.ts"
import { liveStatus, ProjectionControl } from "./support/projectionTest.ts"
import { VaultStateFixture } from "./support/vaultStateFixture.ts"
import { streamGatewayForTest } from "./support/wsTestServer.ts"

/**
 * `/v2/stream` fan-out: CLIENTS WebSocket clients (in CLIENT_PROCESSES child processes) each follow
 * one vault topic; the projection reports RATE vault changes per second (in 10 ms batches) for
 * SECONDS. Latency is from the change batch being handed to the projection's PubSub (the chain
 * notification having been applied) to the frame being received by a sampled client: an upper
 * bound of "notification -> frame sent", since it includes the loopback and the client's parsing.
 *
 *   npx tsx src/bench/wsFanout.ts   (BENCH_CLIENTS, BENCH_RATE, BENCH_SECONDS to change the load)
 */

const CLIENT_FLAG = "--clients"
const CLIENT_PROCESSES = 4
const TICK_MS = 10
const USDC = "EPjFWdd5AufqSSqeM2qN1xzybapC8G4wEGGkZwyTDt1v" as Address

export interface ClientReport {
  readonly frames: number
  readonly gaps: number
  readonly resyncs: number
  /** [slot, receivedAt] of every frame of the sampled clients. */
  readonly samples: ReadonlyArray<readonly [number, number]>
}

const now = () => performance.timeOrigin + performance.now()

const UPDATE_PREFIX = Buffer.from('{"type":"update",')
const DATA_KEY = Buffer.from(',"data":')

/**
 * A frame's envelope without its data: an update's `type`, `topic`, `seq` and `asOf` come before
 * `data` (protocol.ts writes them in that order), so only that head is parsed. These clients stand in
 * for partners on other machines; parsing every builder summary in full here took CPU from the server.
 */
const frameHead = (data: Buffer): { type: string; seq: number; asOf: { slot: number } } => {
  const at = data.subarray(0, UPDATE_PREFIX.length).equals(UPDATE_PREFIX) ? data.indexOf(DATA_KEY) : -1
  return JSON.parse(at === -1 ? data.toString("utf8") : `${data.toString("utf8", 0, at)}}`)
}

/** Child process: opens its clients, counts frames and seq gaps until told to report. */
const runClients = (url: string, topics: ReadonlyArray<string>, sampled: number) => {
  let frames = 0
  let gaps = 0
  let resyncs = 0
  const samples: Array<readonly [number, number]> = []
  let open = 0
  topics.forEach((topic, index) => {
    const socket = new WebSocket(`${url.replace(/^http/, "ws")}/v2/stream`, { headers: { "x-api-key": TEST_PARTNER_KEY } })
    let lastSeq = -1
    socket.on("open", () => {
      socket.send(JSON.stringify({ op: "subscribe", id: 1, topics: [topic] }))
    })
    socket.on("message", (data: Buffer) => {
      const receivedAt = now()
      const frame = frameHead(data)
      if (frame.type === "subscribed") {
        lastSeq = frame.seq
        if (++open === topics.length) process.stdout.write("ready\n")
        return
      }
      if (frame.type === "resync") resyncs++
      if (frame.type !== "update") return
      frames++
      if (frame.seq !== lastSeq + 1) gaps++
      lastSeq = frame.seq
      if (index < sampled) samples.push([frame.asOf.slot, receivedAt])
    })
  })
  process.stdin.once("data", () => {
    process.stdout.write(JSON.stringify({ frames, gaps, resyncs, samples } satisfies ClientReport) + "\n")
    process.exit(0)
  })
}

const percentile = (sorted: ReadonlyArray<number>, p: number) => sorted[Math.min(sorted.length - 1, Math.floor(sorted.length * p))] ?? NaN

/** Whether child processes can be started under the idle scheduling policy (Linux, util-linux's chrt). */
export const idlePolicyAvailable = (): boolean => spawnSync("chrt", ["--idle", "0", "true"]).status === 0

/** Opens a child process of `/v2/stream` clients, one per topic (also used by wsLatency). */
export const startClients = (
  url: string,
  topics: ReadonlyArray<string>,
  sampled: number,
  options: {
    /**
     * Run the clients at the lowest CPU priority (the idle policy where available, else the lowest
     * nice level): for a server-side measure on a small machine, where clients that stand in for
     * partners on other machines would otherwise take the server's cores.
     */
    readonly lowPriority?: boolean
  } = {}
) => {
  // `--import tsx` whatever started this process (`npm run bench` registers tsx in-process, not in execArgv).
  const command = [process.execPath, "--import", "tsx", fileURLToPath(import.meta.url), CLIENT_FLAG, url, String(sampled), ...topics]
  const idle = options.lowPriority === true && idlePolicyAvailable()
  // SCHED_IDLE, where chrt is there: the scheduler then hands the server's thread the core the moment
  // it wakes. At the lowest nice level alone, a client may finish its slice first (milliseconds).
  const child = spawn(idle ? "chrt" : command[0]!, idle ? ["--idle", "0", ...command] : command.slice(1), {
    stdio: ["pipe", "pipe", "inherit"]
  })
  if (options.lowPriority === true && !idle && child.pid !== undefined) os.setPriority(child.pid, os.constants.priority.PRIORITY_LOW)
  let output = ""
  const lines: Array<string> = []
  const waiters: Array<(line: string) => void> = []
  child.stdout.on("data", (chunk: Buffer) => {
    output += chunk.toString("utf8")
    let newline
    while ((newline = output.indexOf("\n")) !== -1) {
      const line = output.slice(0, newline)
      output = output.slice(newline + 1)
      const waiter = waiters.shift()
      if (waiter === undefined) lines.push(line)
      else waiter(line)
    }
  })
  const nextLine = () => new Promise<string>((resolve) => {
    const line = lines.shift()
    if (line === undefined) waiters.push(resolve)
    else resolve(line)
  })
  return {
    ready: nextLine(),
    report: async (): Promise<ClientReport> => {
      child.stdin.write("report\n")
      return JSON.parse(await nextLine()) as ClientReport
    }
  }
}

export const run = async (): Promise<Record<string, number>> => {
  const clients = Number(process.env.BENCH_CLIENTS ?? 1_000)
  const rate = Number(process.env.BENCH_RATE ?? 5_000)
  const seconds = Number(process.env.BENCH_SECONDS ?? 5)
  const vaults = registryVaults("mainnet").filter((vault) => vault.mainLayout).map((vault) => vault.address)
  const fixture = new VaultStateFixture({ slot: 1, blockTime: 1_800_000_000 })
  for (const vault of vaults) fixture.vault(vault, { bundle: { assetAddress: USDC, totalShares: 1_000_000n } })
  const perTick = Math.max(1, Math.round((rate * TICK_MS) / 1_000))

  const bench = Effect.gen(function*() {
    const { url } = yield* HttpListener
    const control = yield* ProjectionControl
    const topics = Array.from({ length: clients }, (_, i) => `vault:${vaults[i % vaults.length]}`)
    const perProcess = Math.ceil(clients / CLIENT_PROCESSES)
    const children = Array.from({ length: CLIENT_PROCESSES }, (_, p) =>
      startClients(url, topics.slice(p * perProcess, (p + 1) * perProcess), 5))
    yield* Effect.promise(() => Promise.all(children.map((child) => child.ready)))

    const notifiedAt = new Map<number, number>()
    const ticks = Math.round((seconds * 1_000) / TICK_MS)
    const started = now()
    let next = 0
    for (let tick = 1; tick <= ticks; tick++) {
      const slot = 1 + tick
      const changes = Array.from({ length: perTick }, () => ({ _tag: "VaultChanged" as const, vault: vaults[next++ % vaults.length]! }))
      fixture.state.asOf = { slot, blockTime: 1_800_000_000 + tick }
      notifiedAt.set(slot, now())
      yield* control.publish({ slot, version: tick, changes })
      const due = started + tick * TICK_MS
      const wait = due - now()
      if (wait > 0) yield* Effect.sleep(wait)
    }
    const elapsed = (now() - started) / 1_000
    yield* Effect.sleep(500)
    const reports = yield* Effect.promise(() => Promise.all(children.map((child) => child.report())))
    const latencies = reports.flatMap((report) =>
      report.samples.map(([slot, receivedAt]) => receivedAt - (notifiedAt.get(slot) ?? receivedAt))).sort((a, b) => a - b)
    const frames = reports.reduce((sum, report) => sum + report.frames, 0)
    return {
      clients,
      vaultTopics: vaults.length,
      changesPerSecond: Math.round((ticks * perTick) / elapsed),
      framesPerSecond: Math.round(frames / elapsed),
      seqGaps: reports.reduce((sum, report) => sum + report.gaps, 0),
      resyncs: reports.reduce((sum, report) => sum + report.resyncs, 0),
      latencyP50Ms: Number(percentile(latencies, 0.5).toFixed(2)),
      latencyP99Ms: Number(percentile(latencies, 0.99).toFixed(2))
    }
  })
  return Effect.runPromise(
    Effect.scoped(Layer.build(streamGatewayForTest({ state: fixture.state, initial: liveStatus(1), limits: { maxConnectionsPerKey: clients } })).pipe(
      Effect.flatMap((context) => Effect.provide(bench, context))
    ))
  )
}

if (process.argv[2] === CLIENT_FLAG) {
  runClients(process.argv[3]!, process.argv.slice(5), Number(process.argv[4]))
} else if (import.meta.url === `file://${process.argv[1]}`) {
  console.table(await run())
  process.exit(0)
}
