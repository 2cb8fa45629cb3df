import { KEYED_ROUTES, ROUTE_PATHS, startServer } from "./vaultReads.ts"
import { measureThroughput } from "./support/httpLoadClient.ts"
import { cpuSecondsOf } from "./support/processCpu.ts"
import { run as wsLatency } from "./wsLatency.ts"

/**
 * The metrics' cost on the hot paths, measured side by side in one run (target: within 5 %).
 * HTTP: the `vaultReads` server twice, metrics off and on (every request metered, the listener
 * scraped every 5 s), the same keyed reads alternating between them, best of rounds, by req/s and
 * by server CPU per request. WebSocket: `wsLatency` run off, on, off, on; best p99 and CPU of each.
 *
 *   npx tsx src/bench/metricsOverhead.ts
 */
const ratio = (value: number) => Number(value.toFixed(3))
const P99 = "received -> frame published p99 ms (target <= 5)"
const CPU = "server process CPU us per notification"

const httpOverhead = async (rounds: number, durationMs: number) => {
  const servers = { off: await startServer(false), on: await startServer(true) }
  try {
    const best = { off: new Map<string, number>(), on: new Map<string, number>() }
    const cpu = { off: new Map<string, number>(), on: new Map<string, number>() }
    for (let round = 0; round < rounds; round++) {
      for (const route of KEYED_ROUTES) {
        for (const mode of round % 2 === 0 ? (["off", "on"] as const) : (["on", "off"] as const)) {
          const { child, key, port } = servers[mode]
          const before = cpuSecondsOf(child.pid!)
          const result = await measureThroughput({ port, path: ROUTE_PATHS[route], connections: 64, pipeline: 4, durationMs, headers: { "x-api-key": key } })
          if (result.errors > 0) throw new Error(`${route} (metrics ${mode}): ${result.errors} errors`)
          best[mode].set(route, Math.max(best[mode].get(route) ?? 0, result.requestsPerSecond))
          cpu[mode].set(route, Math.min(cpu[mode].get(route) ?? Infinity, (cpuSecondsOf(child.pid!) - before) / result.responses))
        }
      }
    }
    const figures: Record<string, number> = {}
    for (const route of KEYED_ROUTES) {
      figures[`${route} req/s metrics off`] = Math.round(best.off.get(route)!)
      figures[`${route} req/s metrics on`] = Math.round(best.on.get(route)!)
      figures[`${route} on/off by req/s (target >= 0.95)`] = ratio(best.on.get(route)! / best.off.get(route)!)
      figures[`${route} on/off by server CPU per request (target >= 0.95)`] = ratio(cpu.off.get(route)! / cpu.on.get(route)!)
    }
    return figures
  } finally {
    servers.off.child.kill("SIGTERM")
    servers.on.child.kill("SIGTERM")
  }
}

const wsOverhead = async () => {
  const runs = { off: [] as Array<Record<string, number>>, on: [] as Array<Record<string, number>> }
  for (const mode of ["off", "on", "off", "on"] as const) runs[mode].push(await wsLatency({ metrics: mode === "on" }))
  const bestOf = (mode: "off" | "on", figure: string) => Math.min(...runs[mode].map((figures) => figures[figure]!))
  return {
    "ws p99 ms metrics off": bestOf("off", P99),
    "ws p99 ms metrics on": bestOf("on", P99),
    "ws CPU us per notification metrics off": bestOf("off", CPU),
    "ws CPU us per notification metrics on": bestOf("on", CPU),
    "ws on/off by CPU per notification (target >= 0.95)": ratio(bestOf("off", CPU) / bestOf("on", CPU))
  }
}

export const run = async (): Promise<Record<string, number>> => ({
  ...(await httpOverhead(4, 3_000)),
  ...(await wsOverhead())
})

if (import.meta.url === `file://${process.argv[1]}`) {
  console.table(await run())
  process.exit(0)
}
