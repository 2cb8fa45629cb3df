import { type ChildProcess, spawn } from "node:child_process"
import http from "node:http"
import { fileURLToPath, pathToFileURL } from "node:url"
import { type Address, getAddressDecoder } from "@solana/kit"
import { Effect, Layer, Schedule } from "effect"
import { MetricsListener, MetricsListenerLive } from "../../layers/otel/MetricsListenerLive.ts"
import { PartnerKeyLive } from "../../layers/memory/PartnerKeyLive.ts"
import { RateLimiterLive } from "../../layers/memory/RateLimiterLive.ts"
import { HttpListener, HttpServer } from "../../layers/uws/HttpServer.ts"
import { registryVaults } from "../ntbundle/registry.ts"
import { putReferrer, tierSchedule } from "./support/referrersFixture.ts"
import { measureLatency, measureThroughput } from "./support/httpLoadClient.ts"
import { benchModuleArgs } from "./support/compiledModule.ts"
import { cpuSecondsOf } from "./support/processCpu.ts"
import { gatewayForTest } from "./support/httpTestServer.ts"
import { makePartnerKeysInMemory } from "./support/partnerKeysInMemory.ts"
import { liveStatus } from "./support/projectionTest.ts"
import { VaultStateFixture } from "./support/vaultStateFixture.ts"

/**
 * The hot keyed reads — `GET /v2/vault/{address}`, `GET /v2/vaults`, `GET /v2/referrer/{address}/summary`
 * — through the gateway's whole API (every route registered) behind the real `PartnerKey` middleware
 * (key record cache over an in-memory key store, in-memory quota out of reach), against bare uWS
 * routes returning the same bytes; one server process, one client process sending the same request
 * (with its `x-api-key`) to both, best of alternating rounds; then latency at a fixed rate.
 * Target (DESIGN §7): >= 0.5 of bare.
 *
 *   npx tsx src/bench/vaultReads.ts   (BENCH_ACCEPT_ENCODING="gzip, br": the load client sends it,
 *   as browsers and undici do; `...WireBytes` is then the body as sent)
 */

const SERVE_FLAG = "--serve"
const METRICS_ENV = "BENCH_SERVER_METRICS"

const scrapedMetricsListener = Layer.effectDiscard(
  Effect.flatMap(MetricsListener, ({ url }) =>
    Effect.forkDaemon(Effect.repeat(Effect.promise(() => fetch(url).then((r) => r.text())), Schedule.spaced("5 seconds"))))
).pipe(Layer.provideMerge(MetricsListenerLive({ host: "127.0.0.1", port: 0 })))
const USDC = "EPjFWdd5AufqSSqeM2qN1xzybapC8G4wEGGkZwyTDt1v" as Address
const vaults = registryVaults("mainnet").filter((vault) => vault.mainLayout).map((vault) => vault.address)
/** A builder registered in this many vaults, each with a cohort of bound users. */
const BUILDER_VAULTS = 8
const COHORT_PER_VAULT = 100
const BUILDER = "Es9vMFrzaCERmJfrF4H2FYD4KCoNkY11McCe8BenwNYB" as Address
const ONE = vaults[0]!
const ROUTES = {
  bareOne: "/bench/one",
  one: `/v2/vault/${ONE}`,
  bareList: "/bench/list",
  list: "/v2/vaults",
  bareSummary: "/bench/summary",
  summary: `/v2/referrer/${BUILDER}/summary`
} as const
type RouteName = keyof typeof ROUTES
const PAIRS = [["bareOne", "one"], ["bareList", "list"], ["bareSummary", "summary"]] as const

const walletOf = (n: number): Address => {
  const bytes = new Uint8Array(32)
  new DataView(bytes.buffer).setUint32(0, n + 1)
  bytes[31] = 7
  return getAddressDecoder().decode(bytes)
}

export const fixtureState = () => {
  const fixture = new VaultStateFixture({ slot: 250_000_000, blockTime: 1_800_000_000 })
  const tiers = tierSchedule([0n, 10n, 100n, 1_000n, 10_000n].map((k, t) => ({ threshold: k * 1_000_000_000n, pfeeBps: 0, mfeeBps: 1_000 * (t + 1) })))
  for (const [i, vault] of vaults.entries()) {
    fixture.vault(vault, {
      bundle: {
        assetAddress: USDC, bundleUnderlyingBalance: 1_000_000_000n * BigInt(i + 1), totalShares: 900_000_000n * BigInt(i + 1),
        managementFeeBps: 100, withdrawalFee: 30, referrerEnabled: true, ...tiers
      },
      oracle: { averageExternalEquity: 123_456_789n, lastUpdateTime: 1_799_999_000n }
    })
  }
  let user = 0
  for (const vault of vaults.slice(0, BUILDER_VAULTS)) {
    for (let i = 0; i < COHORT_PER_VAULT; i++) fixture.position(vault, walletOf(user++), { shares: 1_000_000n * BigInt(i + 1), referrer: BUILDER })
  }
  for (const vault of vaults.slice(0, BUILDER_VAULTS)) {
    putReferrer(fixture.state, vault, BUILDER, { accruedMfeeShares: 10_000_000n, accruedPfeeShares: 5_000_000n, referredNetDeposits: 1_200_000_000n })
  }
  return fixture.state
}

const serve = () => {
  const bodies: Record<string, string> = {}
  const references = Layer.effectDiscard(
    Effect.map(HttpServer, (server) => {
      for (const [bare] of PAIRS) {
        server.route("GET", ROUTES[bare], (res) => {
          res.writeHeader("content-type", "application/json; charset=utf-8").end(bodies[bare] ?? "")
        })
      }
    })
  )
  const app = Layer.unwrapEffect(
    Effect.map(makePartnerKeysInMemory, ({ layer, store }) => {
      const { key } = store.issue({ name: "bench", quotaLimit: 1_000_000_000, quotaWindowSeconds: 3600 })
      const partnerKey = PartnerKeyLive({ cluster: "sandbox", defaultQuota: { limit: 1_000, windowSeconds: 60 } }).pipe(
        Layer.provide(Layer.merge(layer, RateLimiterLive))
      )
      const metered = process.env[METRICS_ENV] === "on"
      const gateway = gatewayForTest({ state: fixtureState(), initial: liveStatus(250_000_000), partnerKey, extraRoutes: references, meterRequests: metered })
      // With metrics on, the listener runs and is scraped every 5 s, as Prometheus would.
      const metrics = metered ? scrapedMetricsListener.pipe(Layer.provide(gateway)) : Layer.empty
      return Layer.effectDiscard(
        Effect.gen(function*() {
          const { port } = yield* HttpListener
          const text = (path: string) =>
            Effect.promise(() => fetch(`http://127.0.0.1:${port}${path}`, { headers: { "x-api-key": key } }).then((r) => r.text()))
          // The bare routes answer exactly the bytes the transport answers; the key ends up cached.
          for (const [bare, keyed] of PAIRS) bodies[bare] = yield* text(ROUTES[keyed])
          // Until the key cache's listener is live, every request reads the store: wait for a cached hit.
          for (let i = 0; i < 200; i++) {
            const before = store.lookups()
            yield* text(ROUTES.one)
            if (store.lookups() === before) break
            yield* Effect.sleep("10 millis")
          }
          process.stdout.write(`READY ${port} ${key}\n`)
        })
      ).pipe(Layer.provide(Layer.merge(gateway, metrics)))
    })
  )
  process.once("SIGTERM", () => process.exit(0))
  Effect.runFork(Layer.launch(app))
}

/** The read server in a child process; `metrics: true` meters requests and runs the scraped metrics listener. */
export const startServer = async (metrics = false): Promise<{ readonly child: ChildProcess; readonly port: number; readonly key: string }> => {
  const server = await benchModuleArgs(import.meta.url)
  return new Promise((resolve, reject) => {
    // BENCH_SERVER_NODE_ARGS: extra node flags for the server child only (e.g. "--cpu-prof --cpu-prof-dir=/tmp/p")
    const extra = (process.env.BENCH_SERVER_NODE_ARGS ?? "").split(" ").filter((arg) => arg !== "")
    const child = spawn(process.execPath, [...extra, ...server, SERVE_FLAG], {
      stdio: ["ignore", "pipe", "inherit"],
      env: { ...process.env, [METRICS_ENV]: metrics ? "on" : "off" }
    })
    let output = ""
    child.stdout!.on("data", (chunk) => {
      output += String(chunk)
      const ready = /READY (\d+) (\S+)/.exec(output)
      if (ready !== null) resolve({ child, port: Number(ready[1]), key: ready[2]! })
    })
    child.once("exit", (code) => reject(new Error(`bench server exited with ${code}`)))
  })
}

const ms = (value: number) => Number(value.toFixed(3))

export const ROUTE_PATHS = ROUTES
export const KEYED_ROUTES = PAIRS.map(([, keyed]) => keyed)

/** The body's bytes as the server sends them (node:http does not decode a compressed body). */
const wireBytes = (port: number, path: string, headers: Record<string, string>): Promise<number> =>
  new Promise((resolve, reject) => {
    http.get({ host: "127.0.0.1", port, path, headers }, (res) => {
      let bytes = 0
      res.on("data", (chunk: Buffer) => bytes += chunk.length)
      res.on("end", () => resolve(bytes))
    }).once("error", reject)
  })

export const run = async (
  options: { readonly rounds?: number; readonly durationMs?: number; readonly latencyRate?: number; readonly warmUpMs?: number } = {}
): Promise<Record<string, number>> => {
  const rounds = options.rounds ?? 3
  const durationMs = options.durationMs ?? 3_000
  const latencyRate = options.latencyRate ?? 2_000
  const warmUpMs = options.warmUpMs ?? 1_000
  const { child, key, port } = await startServer()
  const acceptEncoding = process.env.BENCH_ACCEPT_ENCODING
  const headers: Record<string, string> = acceptEncoding === undefined ? { "x-api-key": key } : { "x-api-key": key, "accept-encoding": acceptEncoding }
  try {
    const text = (path: string) => fetch(`http://127.0.0.1:${port}${path}`, { headers }).then((r) => r.text())
    const bodies: Record<string, string> = {}
    for (const name of Object.keys(ROUTES) as Array<RouteName>) bodies[name] = await text(ROUTES[name])
    for (const [bare, keyed] of PAIRS) {
      if (bodies[bare] !== bodies[keyed] || !bodies[keyed]!.startsWith(`{"success":true`)) throw new Error(`${keyed}: bodies differ`)
    }
    // Unmeasured load on every route first: a round measured while V8 still compiles the route's path
    // (70 functions optimised in the first 2 s of a one-vault read) is not the steady state.
    for (const path of Object.values(ROUTES)) await measureThroughput({ port, path, connections: 64, pipeline: 4, durationMs: warmUpMs, headers })
    const best: Record<RouteName, number> = { bareOne: 0, one: 0, bareList: 0, list: 0, bareSummary: 0, summary: 0 }
    const cpu: Record<RouteName, number> = { bareOne: Infinity, one: Infinity, bareList: Infinity, list: Infinity, bareSummary: Infinity, summary: Infinity }
    let errors = 0
    for (let round = 0; round < rounds; round++) {
      for (const [name, path] of Object.entries(ROUTES) as Array<[RouteName, string]>) {
        const cpuBefore = cpuSecondsOf(child.pid!)
        const result = await measureThroughput({ port, path, connections: 64, pipeline: 4, durationMs, headers })
        errors += result.errors
        best[name] = Math.max(best[name], result.requestsPerSecond)
        cpu[name] = Math.min(cpu[name], (cpuSecondsOf(child.pid!) - cpuBefore) / result.responses)
      }
    }
    const figures: Record<string, number> = {
      vaults: vaults.length,
      builderVaults: BUILDER_VAULTS,
      cohortPerVault: COHORT_PER_VAULT
    }
    const label = { one: "vault", list: "list", summary: "summary" } as const
    for (const [bare, keyed] of PAIRS) {
      figures[`${label[keyed]}BodyBytes`] = Buffer.byteLength(bodies[keyed]!)
      figures[`${label[keyed]}WireBytes`] = await wireBytes(port, ROUTES[keyed], headers)
      figures[`${label[keyed]}BareReqPerSec`] = Math.round(best[bare])
      figures[`${label[keyed]}ReqPerSec`] = Math.round(best[keyed])
      figures[`${label[keyed]}VsBare (target >= 0.5)`] = ms(best[keyed] / best[bare])
      figures[`${label[keyed]}BareServerCpuUsPerReq`] = ms(cpu[bare] * 1e6)
      figures[`${label[keyed]}ServerCpuUsPerReq`] = ms(cpu[keyed] * 1e6)
      // Requests per server CPU second, relative to bare: the req/s ratio the route would reach on an idle machine.
      figures[`${label[keyed]}VsBareByCpu (target >= 0.5)`] = ms(cpu[bare] / cpu[keyed])
    }
    figures.latencyRatePerSec = latencyRate
    for (const [, keyed] of PAIRS) {
      const latency = await measureLatency({ port, connections: 32, ratePerSecond: latencyRate, durationMs, path: ROUTES[keyed], headers })
      figures[`${label[keyed]}P50Ms`] = ms(latency.p50Ms)
      figures[`${label[keyed]}P99Ms`] = ms(latency.p99Ms)
      errors += latency.errors
    }
    figures.errors = errors
    return figures
  } finally {
    child.kill("SIGTERM")
  }
}

// the server child runs this module compiled (benchModuleArgs), started with SERVE_FLAG
if (process.argv.includes(SERVE_FLAG)) serve()
else if (process.argv[1] !== undefined && import.meta.url === pathToFileURL(process.argv[1]).href) console.table(await run())
