import { type ChildProcess, spawn } from "node:child_process"
import { fileURLToPath, pathToFileURL } from "node:url"
import type { Address } from "@solana/kit"
import { HttpApi, HttpApiGroup } from "@effect/platform"
import { Effect, Layer } from "effect"
import { ApiRoutesLive } from "../../layers/uws/ApiRoutes.ts"
import { HttpListener, HttpServer } from "../../layers/uws/HttpServer.ts"
import { NoPricesLive } from "../../services/Prices.ts"
import { BadRequestResponse, InternalErrorResponse, ProjectionUnavailableResponse } from "../../src/api/errors.ts"
import { implementMiddleware } from "../../src/api/middleware.ts"
import { PartnerKey } from "../../src/api/security/PartnerKey.ts"
import { VaultsApi } from "../../src/api/vaults/VaultsApi.ts"
import { VaultsHandlersLive } from "../../src/api/vaults/VaultsHandlers.ts"
import { registryVaults } from "../../src/ntbundle/registry.ts"
import { measureLatency, measureThroughput } from "../support/httpLoadClient.ts"
import { listenForTest } from "../support/httpTestServer.ts"
import { liveStatus, ProjectionTest } from "../support/projectionTest.ts"
import { VaultStateFixture } from "../support/vaultStateFixture.ts"

/**
 * `GET /v2/vault/{address}` and `GET /v2/vaults` through the contract transport (partner-key
 * middleware seam included, with a pass-through implementation: key lookup and quota are the keys
 * benchmark's business) against bare uWS routes returning the same bytes, one server process, one
 * client process, best of alternating rounds; then latency at a fixed rate. Target: >= 0.5 of bare.
 *
 *   npx tsx test/bench/vaultReads.ts   (BENCH_NO_KEY=1 to leave the middleware out)
 */

const SERVE_FLAG = "--serve"
const USDC = "EPjFWdd5AufqSSqeM2qN1xzybapC8G4wEGGkZwyTDt1v" as Address
const vaults = registryVaults("mainnet").filter((vault) => vault.mainLayout).map((vault) => vault.address)
const ONE = vaults[0]!
const ROUTES = { bareOne: "/bench/one", one: `/v2/vault/${ONE}`, bareList: "/bench/list", list: "/v2/vaults" } as const
type RouteName = keyof typeof ROUTES

// BENCH_NO_KEY=1: the same endpoints without the middleware seam, to see what the seam costs.
const NoKeyVaults = Object.values(VaultsApi.endpoints).reduce((group: any, endpoint) => group.add(endpoint), HttpApiGroup.make("vaults")).addError(ProjectionUnavailableResponse)
const BenchApi = HttpApi.make("vault-gateway").add(process.env.BENCH_NO_KEY ? NoKeyVaults as typeof VaultsApi : VaultsApi).addError(BadRequestResponse).addError(InternalErrorResponse)

const PassThroughKey = implementMiddleware(PartnerKey, () =>
  Effect.succeed({ provides: { keyId: "bench", name: "bench", ownerWallet: null, environment: "sandbox" as const } }))

const serve = () => {
  const fixture = new VaultStateFixture({ slot: 250_000_000, blockTime: 1_800_000_000 })
  for (const [i, vault] of vaults.entries()) {
    fixture.vault(vault, {
      bundle: {
        assetAddress: USDC, bundleUnderlyingBalance: 1_000_000_000n * BigInt(i + 1), totalShares: 900_000_000n * BigInt(i + 1),
        managementFeeBps: 100, withdrawalFee: 30, referrerEnabled: true, tierCount: 5,
        referralTiers: [0n, 10n, 100n, 1_000n, 10_000n].map((k, t) => ({ threshold: k * 1_000_000_000n, pfeeBps: 0, mfeeBps: 1_000 * (t + 1) }))
      },
      oracle: { averageExternalEquity: 123_456_789n, lastUpdateTime: 1_799_999_000n }
    })
  }
  const references = Layer.effectDiscard(
    Effect.gen(function*() {
      const server = yield* HttpServer
      const bodies: Record<string, string> = {}
      server.route("GET", ROUTES.bareOne, (res) => {
        res.writeHeader("content-type", "application/json; charset=utf-8").end(bodies.one ?? "")
      })
      server.route("GET", ROUTES.bareList, (res) => {
        res.writeHeader("content-type", "application/json; charset=utf-8").end(bodies.list ?? "")
      })
      ;(globalThis as { benchBodies?: Record<string, string> }).benchBodies = bodies
    })
  )
  const routes = Layer.mergeAll(ApiRoutesLive(BenchApi), references).pipe(
    Layer.provide(Layer.merge(VaultsHandlersLive, PassThroughKey)),
    Layer.provide(NoPricesLive)
  )
  const app = listenForTest(routes).pipe(Layer.provide(ProjectionTest({ initial: liveStatus(250_000_000), state: fixture.state })))
  process.once("SIGTERM", () => process.exit(0))
  Effect.runFork(
    Layer.launch(
      Layer.effectDiscard(
        Effect.gen(function*() {
          const { port } = yield* HttpListener
          const bodies = (globalThis as { benchBodies?: Record<string, string> }).benchBodies!
          // The bare routes answer exactly the bytes the transport answers.
          bodies.one = yield* Effect.promise(() => fetch(`http://127.0.0.1:${port}${ROUTES.one}`).then((r) => r.text()))
          bodies.list = yield* Effect.promise(() => fetch(`http://127.0.0.1:${port}${ROUTES.list}`).then((r) => r.text()))
          process.stdout.write(`READY ${port}\n`)
        })
      ).pipe(Layer.provide(app))
    )
  )
}

const startServer = (): Promise<{ readonly child: ChildProcess; readonly port: number }> =>
  new Promise((resolve, reject) => {
    const child = spawn(process.execPath, [...process.execArgv, fileURLToPath(import.meta.url), SERVE_FLAG], {
      stdio: ["ignore", "pipe", "inherit"]
    })
    let output = ""
    child.stdout!.on("data", (chunk) => {
      output += String(chunk)
      const ready = /READY (\d+)/.exec(output)
      if (ready !== null) resolve({ child, port: Number(ready[1]) })
    })
    child.once("exit", (code) => reject(new Error(`bench server exited with ${code}`)))
  })

const ms = (value: number) => Number(value.toFixed(3))

export const run = async (
  options: { readonly rounds?: number; readonly durationMs?: number; readonly latencyRate?: number } = {}
): Promise<Record<string, number>> => {
  const rounds = options.rounds ?? 3
  const durationMs = options.durationMs ?? 3_000
  const latencyRate = options.latencyRate ?? 2_000
  const { child, port } = await startServer()
  try {
    const text = (path: string) => fetch(`http://127.0.0.1:${port}${path}`).then((r) => r.text())
    const [one, bareOne, list, bareList] = await Promise.all([ROUTES.one, ROUTES.bareOne, ROUTES.list, ROUTES.bareList].map(text))
    if (one !== bareOne || list !== bareList || !one!.startsWith(`{"success":true`)) throw new Error("bodies differ")
    const best: Record<RouteName, number> = { bareOne: 0, one: 0, bareList: 0, list: 0 }
    let errors = 0
    for (let round = 0; round < rounds; round++) {
      for (const [name, path] of Object.entries(ROUTES) as Array<[RouteName, string]>) {
        const result = await measureThroughput({ port, path, connections: 64, pipeline: 4, durationMs })
        errors += result.errors
        best[name] = Math.max(best[name], result.requestsPerSecond)
      }
    }
    const latency = { port, connections: 32, ratePerSecond: latencyRate, durationMs }
    const oneLatency = await measureLatency({ ...latency, path: ROUTES.one })
    const listLatency = await measureLatency({ ...latency, path: ROUTES.list })
    return {
      vaults: vaults.length,
      vaultBodyBytes: Buffer.byteLength(one!),
      listBodyBytes: Buffer.byteLength(list!),
      bareVaultReqPerSec: Math.round(best.bareOne),
      vaultReqPerSec: Math.round(best.one),
      vaultVsBare: ms(best.one / best.bareOne),
      bareListReqPerSec: Math.round(best.bareList),
      listReqPerSec: Math.round(best.list),
      listVsBare: ms(best.list / best.bareList),
      latencyRatePerSec: latencyRate,
      vaultP50Ms: ms(oneLatency.p50Ms),
      vaultP99Ms: ms(oneLatency.p99Ms),
      listP50Ms: ms(listLatency.p50Ms),
      listP99Ms: ms(listLatency.p99Ms),
      errors: errors + oneLatency.errors + listLatency.errors
    }
  } finally {
    child.kill("SIGTERM")
  }
}

if (process.argv[1] !== undefined && import.meta.url === pathToFileURL(process.argv[1]).href) {
  if (process.argv.includes(SERVE_FLAG)) serve()
  else console.table(await run())
}
