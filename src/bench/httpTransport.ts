import { type ChildProcess, spawn } from "node:child_process"
import { fileURLToPath, pathToFileURL } from "node:url"
import * as HttpApi from "@effect/platform/HttpApi"
import { Effect, Either, Layer, Runtime, Schema, Stream } from "effect"
import { Projection } from "../../services/Projection.ts"
import { ApiRoutesLive } from "../../layers/uws/ApiRoutes.ts"
import { HttpListener, HttpServer } from "../../layers/uws/HttpServer.ts"
import { Api } from "../api/Api.ts"
import { ServiceStatusBody, toServiceStatusBody } from "../api/system/serviceStatus.ts"
import { HealthBody, SystemApi } from "../api/system/SystemApi.ts"
import { BadRequestResponse, InternalErrorResponse } from "../api/errors.ts"
import { VERSION } from "../version.ts"
import { SystemHandlersLive } from "../api/system/SystemHandlers.ts"
import { listenForTest } from "./support/httpTestServer.ts"
import { measureLatency, measureThroughput } from "./support/httpLoadClient.ts"
import { cpuSecondsOf } from "./support/processCpu.ts"
import { ProjectionState } from "../domain/projection/state.ts"
import { NTBUNDLE_PROGRAM_ID } from "../ntbundle/programs.ts"
import { liveStatus } from "./support/projectionTest.ts"

/**
 * `GET /status` through the contract transport against bare uWS routes returning a static body of
 * the same bytes, in one server process, with one client in this process (so they do not share a
 * JS thread). Rounds alternate between routes; the best round of each counts. Then latency at a
 * fixed request rate. Target (DESIGN §7): transport >= 0.5 of bare uWS, by req/s and by server CPU per request.
 *
 *   npx tsx src/bench/httpTransport.ts
 */

const ROUTES = {
  bare: "/bench/bare",
  runSync: "/bench/run-sync",
  transport: "/status",
  // `/health`'s handler returns `Effect.succeed(preEncoded)`: the transport without a fiber, against
  // a bare route with its body. Shows what a synchronous projection accessor would buy hot reads.
  bareHealth: "/bench/bare-health",
  transportNoFiber: "/health"
} as const

const SERVE_FLAG = "--serve"

// The system routes alone, under the gateway's API id so that the gateway's handlers serve them
// (the other groups need services this benchmark does not measure).
const SystemOnlyApi = HttpApi.make(Api.identifier).add(SystemApi).addError(BadRequestResponse).addError(InternalErrorResponse)

/**
 * A live projection whose reads are what the single-writer projection's are: a synchronous look at
 * the current value (no span: see the report on span cost).
 */
const LiveProjection = Layer.sync(Projection, () => {
  const status = liveStatus(250_000_000)
  const state = new ProjectionState(NTBUNDLE_PROGRAM_ID)
  return {
    status: Effect.sync(() => status),
    currentStatus: () => status,
    requireLive: Effect.void,
    read: (read) => Effect.sync(() => read(state)),
    readSync: (read) => Either.right(read(state)),
    statusChanges: Stream.succeed(status),
    listen: () => () => {}
  }
})

/** The server side: the gateway's API over a live projection, plus the two reference routes. */
const serve = () => {
  const references = Layer.effectDiscard(
    Effect.gen(function*() {
      const server = yield* HttpServer
      const projection = yield* Projection
      const runtime = yield* Effect.runtime<never>()
      // what `/status` answers without background work to report (no IngestionProgress here)
      const idle = { backfill: null, rollup: null, checkpoint: null, role: "leader" } as const
      const body = JSON.stringify(Schema.encodeSync(ServiceStatusBody)(toServiceStatusBody(yield* projection.status, idle, 0)))
      const healthBody = JSON.stringify(Schema.encodeSync(HealthBody)({ status: "ok", version: VERSION }))
      server.route("GET", ROUTES.bare, (res) => {
        res.writeHeader("content-type", "application/json; charset=utf-8").end(body)
      })
      server.route("GET", ROUTES.bareHealth, (res) => {
        res.writeHeader("content-type", "application/json; charset=utf-8").end(healthBody)
      })
      // What the measurements in DESIGN §5 call "raw uWS handler reading Effect state with runSync".
      server.route("GET", ROUTES.runSync, (res) => {
        Runtime.runSync(runtime, projection.status)
        res.writeHeader("content-type", "application/json; charset=utf-8").end(body)
      })
    })
  )
  const routes = Layer.mergeAll(ApiRoutesLive(SystemOnlyApi), references).pipe(Layer.provide(SystemHandlersLive))
  const app = listenForTest(routes).pipe(Layer.provide(LiveProjection))
  process.once("SIGTERM", () => process.exit(0))
  Effect.runFork(
    Layer.launch(
      Layer.effectDiscard(Effect.map(HttpListener, ({ port }) => process.stdout.write(`READY ${port}\n`))).pipe(
        Layer.provide(app)
      )
    )
  )
}

const startServer = (): Promise<{ readonly child: ChildProcess; readonly port: number }> =>
  new Promise((resolve, reject) => {
    const child = spawn(process.execPath, ["--import", "tsx", fileURLToPath(import.meta.url), SERVE_FLAG], {
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

const sameBody = async (port: number, bare: string, transport: string) => {
  const [bareBody, transportBody] = await Promise.all(
    [bare, transport].map((path) => fetch(`http://127.0.0.1:${port}${path}`).then((r) => r.text()))
  )
  if (bareBody !== transportBody) throw new Error(`bodies differ:\n${bareBody}\n${transportBody}`)
  return Buffer.byteLength(transportBody!)
}

type RouteName = keyof typeof ROUTES

/** Best-of-`rounds` req/s per route, rounds alternating between routes; also the client's CPU share. */
const throughput = async (serverPid: number, port: number, connections: number, pipeline: number, rounds: number, durationMs: number) => {
  const best: Record<RouteName, number> = { bare: 0, runSync: 0, transport: 0, bareHealth: 0, transportNoFiber: 0 }
  // Least server CPU seconds per request seen for each route.
  const cpu: Record<RouteName, number> = { bare: Infinity, runSync: Infinity, transport: Infinity, bareHealth: Infinity, transportNoFiber: Infinity }
  let errors = 0
  let clientCpu = 0
  for (let round = 0; round < rounds; round++) {
    for (const [name, path] of Object.entries(ROUTES) as Array<[RouteName, string]>) {
      const cpuBefore = cpuSecondsOf(serverPid)
      const result = await measureThroughput({ port, path, connections, pipeline, durationMs })
      cpu[name] = Math.min(cpu[name], (cpuSecondsOf(serverPid) - cpuBefore) / result.responses)
      errors += result.errors
      best[name] = Math.max(best[name], result.requestsPerSecond)
      if (name === "bare") clientCpu = Math.max(clientCpu, result.clientCpu)
    }
  }
  return { best, cpu, errors, clientCpu }
}

const ms = (value: number) => Number(value.toFixed(3))

/**
 * Two load shapes, same client, same server run:
 * - keep-alive: 256 connections, one request in flight each (how API clients behave); on a 2-core
 *   machine the client and the kernel take a large share here (see `keepAliveClientCpu`);
 * - pipelined: 16 connections x 32 requests in flight, so the server's CPU is the only limit and
 *   the per-request cost of each route shows undiluted.
 */
export const run = async (
  options: { readonly rounds?: number; readonly durationMs?: number; readonly latencyRate?: number; readonly warmUpMs?: number } = {}
): Promise<Record<string, number>> => {
  const rounds = options.rounds ?? 3
  const durationMs = options.durationMs ?? 3_000
  const warmUpMs = options.warmUpMs ?? 1_000
  const latencyRate = options.latencyRate ?? 20_000
  const { child, port } = await startServer()
  try {
    const bodyBytes = await sameBody(port, ROUTES.bare, ROUTES.transport)
    await sameBody(port, ROUTES.bareHealth, ROUTES.transportNoFiber)
    for (const path of Object.values(ROUTES)) await measureThroughput({ port, path, connections: 16, pipeline: 32, durationMs: warmUpMs })
    const keepAlive = await throughput(child.pid!, port, 256, 1, rounds, durationMs)
    const pipelined = await throughput(child.pid!, port, 16, 32, rounds, durationMs)
    const latency = { port, connections: 32, ratePerSecond: latencyRate, durationMs }
    const bareLatency = await measureLatency({ ...latency, path: ROUTES.bare })
    const transportLatency = await measureLatency({ ...latency, path: ROUTES.transport })
    return {
      bodyBytes,
      keepAliveBareReqPerSec: Math.round(keepAlive.best.bare),
      keepAliveRunSyncReqPerSec: Math.round(keepAlive.best.runSync),
      keepAliveTransportReqPerSec: Math.round(keepAlive.best.transport),
      keepAliveTransportVsBare: ms(keepAlive.best.transport / keepAlive.best.bare),
      keepAliveClientCpu: ms(keepAlive.clientCpu),
      keepAliveNoFiberVsBare: ms(keepAlive.best.transportNoFiber / keepAlive.best.bareHealth),
      keepAliveBareServerCpuUsPerReq: ms(keepAlive.cpu.bare * 1e6),
      keepAliveTransportServerCpuUsPerReq: ms(keepAlive.cpu.transport * 1e6),
      keepAliveTransportVsBareByCpu: ms(keepAlive.cpu.bare / keepAlive.cpu.transport),
      keepAliveNoFiberVsBareByCpu: ms(keepAlive.cpu.bareHealth / keepAlive.cpu.transportNoFiber),
      pipelinedBareReqPerSec: Math.round(pipelined.best.bare),
      pipelinedRunSyncReqPerSec: Math.round(pipelined.best.runSync),
      pipelinedTransportReqPerSec: Math.round(pipelined.best.transport),
      pipelinedTransportVsBare: ms(pipelined.best.transport / pipelined.best.bare),
      pipelinedRunSyncVsBare: ms(pipelined.best.runSync / pipelined.best.bare),
      pipelinedClientCpu: ms(pipelined.clientCpu),
      pipelinedNoFiberVsBare: ms(pipelined.best.transportNoFiber / pipelined.best.bareHealth),
      // Server CPU per request (steadier than req/s when the machine is shared), and bare / transport.
      pipelinedBareServerCpuUsPerReq: ms(pipelined.cpu.bare * 1e6),
      pipelinedTransportServerCpuUsPerReq: ms(pipelined.cpu.transport * 1e6),
      pipelinedTransportVsBareByCpu: ms(pipelined.cpu.bare / pipelined.cpu.transport),
      pipelinedRunSyncVsBareByCpu: ms(pipelined.cpu.bare / pipelined.cpu.runSync),
      pipelinedNoFiberVsBareByCpu: ms(pipelined.cpu.bareHealth / pipelined.cpu.transportNoFiber),
      latencyRatePerSec: latencyRate,
      bareP50Ms: ms(bareLatency.p50Ms),
      bareP99Ms: ms(bareLatency.p99Ms),
      transportP50Ms: ms(transportLatency.p50Ms),
      transportP99Ms: ms(transportLatency.p99Ms),
      transportMaxMs: ms(transportLatency.maxMs),
      errors: keepAlive.errors + pipelined.errors + bareLatency.errors + transportLatency.errors
    }
  } finally {
    child.kill("SIGTERM")
  }
}

if (process.argv[1] !== undefined && import.meta.url === pathToFileURL(process.argv[1]).href) {
  if (process.argv.includes(SERVE_FLAG)) serve()
  else console.table(await run())
}
