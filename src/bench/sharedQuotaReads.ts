import { type ChildProcess, spawn } from "node:child_process"
import { fileURLToPath, pathToFileURL } from "node:url"
import { SqlClient } from "@effect/sql"
import { Effect, Fiber, Layer } from "effect"
import { PartnerKeyLive } from "../../layers/memory/PartnerKeyLive.ts"
import { RateLimiterLive } from "../../layers/memory/RateLimiterLive.ts"
import { SharedRateLimiterLive } from "../../layers/postgres/SharedRateLimiterLive.ts"
import { HttpListener } from "../../layers/uws/HttpServer.ts"
import { registryVaults } from "../ntbundle/registry.ts"
import { measureThroughput } from "./support/httpLoadClient.ts"
import { cpuSecondsOf } from "./support/processCpu.ts"
import { gatewayForTest } from "./support/httpTestServer.ts"
import { makePartnerKeysInMemory } from "./support/partnerKeysInMemory.ts"
import { liveStatus } from "./support/projectionTest.ts"
import { TestDatabase } from "./support/testDatabase.ts"
import { fixtureState } from "./vaultReads.ts"

/**
 * Hot keyed reads (`GET /v2/vault/{address}`, real `PartnerKey` middleware) with the key's quota
 * counted in memory against the same counted across instances in PostgreSQL (`SHARED_LIMITS`:
 * local leases, commits in the background; default `QUOTA_LEASE_PERCENT`), two server processes,
 * one client, alternating rounds (best of 6, each first every other round), same run. The key's quota is large enough never to refuse: this
 * is the cost of counting. Target: shared >= 0.9x of in-memory by req/s.
 *
 *   npx tsx src/bench/sharedQuotaReads.ts
 */

const SERVE_FLAG = "--serve"
const QUOTA = { limit: 1_000_000_000, windowSeconds: 3600 }
const PATH = `/v2/vault/${registryVaults("mainnet").filter((vault) => vault.mainLayout)[0]!.address}`
type Mode = "memory" | "shared"

const serve = (mode: Mode) => {
  const limiter = mode === "shared" ? SharedRateLimiterLive().pipe(Layer.provideMerge(TestDatabase), Layer.orDie) : RateLimiterLive
  const app = Layer.unwrapEffect(
    Effect.map(makePartnerKeysInMemory, ({ layer, store }) => {
      const { key } = store.issue({ name: "bench", quotaLimit: QUOTA.limit, quotaWindowSeconds: QUOTA.windowSeconds })
      const partnerKey = PartnerKeyLive({ cluster: "sandbox", defaultQuota: { limit: 1_000, windowSeconds: 60 } }).pipe(
        Layer.provide(Layer.merge(layer, limiter))
      )
      const gateway = gatewayForTest({ state: fixtureState(), initial: liveStatus(250_000_000), partnerKey })
      return Layer.effectDiscard(
        Effect.gen(function*() {
          const { port } = yield* HttpListener
          for (let i = 0; i < 20; i++) yield* Effect.promise(() => fetch(`http://127.0.0.1:${port}${PATH}`, { headers: { "x-api-key": key } }).then((r) => r.text()))
          process.stdout.write(`READY ${port} ${key}\n`)
          // on request (stdin line), the shared count: what reached PostgreSQL
          const database = yield* Effect.serviceOption(SqlClient.SqlClient)
          if (database._tag === "Some") {
            const sql = database.value
            process.stdin.on("data", () => {
              Effect.runPromise(sql<{ used: string; rows: number }>`SELECT coalesce(sum(used), 0)::text AS used FROM quota_window`.pipe(Effect.orDie))
                .then((rows) => process.stdout.write(`USED ${rows[0]!.used}\n`))
            })
          }
        })
      ).pipe(Layer.provide(Layer.merge(gateway, mode === "shared" ? limiter : Layer.empty)))
    })
  )
  // interrupted, so that the embedded PostgreSQL stops too
  const fiber = Effect.runFork(Layer.launch(app))
  process.once("SIGTERM", () => Effect.runFork(Fiber.interrupt(fiber)).addObserver(() => process.exit(0)))
}

interface Server {
  readonly child: ChildProcess
  readonly port: number
  readonly key: string
  readonly output: () => string
}

const startServer = (mode: Mode): Promise<Server> =>
  new Promise((resolve, reject) => {
    const child = spawn(process.execPath, ["--import", "tsx", fileURLToPath(import.meta.url), SERVE_FLAG, mode], {
      stdio: ["pipe", "pipe", "inherit"]
    })
    let output = ""
    child.stdout!.on("data", (chunk) => {
      output += String(chunk)
      const ready = /READY (\d+) (\S+)\n/.exec(output)
      if (ready !== null) resolve({ child, port: Number(ready[1]), key: ready[2]!, output: () => output })
    })
    child.once("exit", (code) => reject(new Error(`bench server (${mode}) exited with ${code}`)))
  })

const sharedCount = async (server: Server): Promise<number> => {
  const before = server.output().length
  server.child.stdin!.write("count\n")
  for (let i = 0; i < 100; i++) {
    const used = /USED (\d+)/.exec(server.output().slice(before))
    if (used !== null) return Number(used[1])
    await new Promise((resolve) => setTimeout(resolve, 20))
  }
  throw new Error("the shared server did not report its count")
}

const round3 = (value: number) => Number(value.toFixed(3))

export const run = async (options: { readonly rounds?: number; readonly durationMs?: number } = {}): Promise<Record<string, number>> => {
  const rounds = options.rounds ?? 6
  const durationMs = options.durationMs ?? 3_000
  const servers = { memory: await startServer("memory"), shared: await startServer("shared") }
  try {
    const bodies = await Promise.all(Object.values(servers).map((server) =>
      fetch(`http://127.0.0.1:${server.port}${PATH}`, { headers: { "x-api-key": server.key } }).then(async (r) => `${r.status} ${await r.text()}`)))
    if (bodies[0] !== bodies[1] || !bodies[0]!.startsWith(`200 {"success":true`)) throw new Error(`the servers answer differently: ${bodies.map((b) => b.slice(0, 80)).join(" / ")}`)
    const best = { memory: 0, shared: 0 }
    const cpu = { memory: Infinity, shared: Infinity }
    let errors = 0
    let sharedResponses = 20
    for (let round = 0; round < rounds; round++) {
      // each goes first every other round
      for (const mode of round % 2 === 0 ? (["memory", "shared"] as const) : (["shared", "memory"] as const)) {
        const server = servers[mode]
        const cpuBefore = cpuSecondsOf(server.child.pid!)
        const result = await measureThroughput({ port: server.port, path: PATH, connections: 64, pipeline: 4, durationMs, headers: { "x-api-key": server.key } })
        errors += result.errors
        if (mode === "shared") sharedResponses += result.responses
        best[mode] = Math.max(best[mode], result.requestsPerSecond)
        cpu[mode] = Math.min(cpu[mode], (cpuSecondsOf(server.child.pid!) - cpuBefore) / result.responses)
      }
    }
    await new Promise((resolve) => setTimeout(resolve, 500))
    const committed = await sharedCount(servers.shared)
    return {
      memoryReqPerSec: Math.round(best.memory),
      sharedReqPerSec: Math.round(best.shared),
      sharedVsMemory: round3(best.shared / best.memory),
      memoryServerCpuUsPerReq: round3(cpu.memory * 1e6),
      sharedServerCpuUsPerReq: round3(cpu.shared * 1e6),
      // requests per server CPU second, relative to in-memory (the req/s ratio on an idle machine)
      sharedVsMemoryByCpu: round3(cpu.memory / cpu.shared),
      sharedRequestsAnswered: sharedResponses,
      // what reached PostgreSQL: all but the last, uncommitted part of a lease
      sharedRequestsCommitted: committed,
      errors
    }
  } finally {
    for (const server of Object.values(servers)) server.child.kill("SIGTERM")
  }
}

if (process.argv[1] !== undefined && import.meta.url === pathToFileURL(process.argv[1]).href) {
  const serveAt = process.argv.indexOf(SERVE_FLAG)
  if (serveAt >= 0) serve(process.argv[serveAt + 1] === "shared" ? "shared" : "memory")
  else console.table(await run())
}
