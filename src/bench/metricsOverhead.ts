import { KEYED_ROUTES, ROUTE_PATHS, startServer } from "./vaultReads.ts"
import { measureThroughput } from "./support/httpLoadClient.ts"
import { cpuSecondsOf } from "./support/processCpu.ts"
import { run as wsLatency } from "./wsLatency.ts"

/**
 * The metrics' cost on the hot paths, measured side by side in one run (target: within 5 %).
 * HTTP: the `vaultReads` server with metrics off and on (every request metered, the listener
 * scraped every 5 s), the same keyed reads alternating between them, by req/s and by server CPU
 * per request. Two server processes of one build differ by up to 7 % on a one-vault read (JIT and
 * heap layout: measured with both off), more than the target, so each mode runs in several
 * processes and a figure is the median of their bests; the spread of one mode's processes is
 * printed beside it. WebSocket: `wsLatency` run off, on, off, on; best p99 and CPU of each.
 *
 *   npx tsx src/bench/metricsOverhead.ts
 */
const ratio = (value: number) => Number(value.toFixed(3))
const P99 = "received -> frame published p99 ms (target <= 5)"
const CPU = "server process CPU us per notification"
const MODES = ["off", "on"] as const
type Mode = (typeof MODES)[number]

const median = (values: ReadonlyArray<number>) => {
  const sorted = [...values].sort((a, b) => a - b)
  const middle = Math.floor(sorted.length / 2)
  return sorted.length % 2 === 1 ? sorted[middle]! : (sorted[middle - 1]! + sorted[middle]!) / 2
}

const httpOverhead = async (processes: number, rounds: number, durationMs: number, warmUpMs: number) => {
  const servers: Array<{ readonly mode: Mode; readonly server: Awaited<ReturnType<typeof startServer>> }> = []
  try {
    for (let i = 0; i < processes * 2; i++) servers.push({ mode: MODES[i % 2]!, server: await startServer(i % 2 === 1) })
    // Unmeasured load on each process and route first: no measured round is one where V8 still compiles.
    for (const { server: { key, port } } of servers) {
      for (const route of KEYED_ROUTES) {
        await measureThroughput({ port, path: ROUTE_PATHS[route], connections: 64, pipeline: 4, durationMs: warmUpMs, headers: { "x-api-key": key } })
      }
    }
    // per process and route: best req/s and least CPU per request over the rounds
    const best = servers.map(() => new Map<string, number>())
    const cpu = servers.map(() => new Map<string, number>())
    for (let round = 0; round < rounds; round++) {
      for (const route of KEYED_ROUTES) {
        const order = round % 2 === 0 ? servers.keys() : [...servers.keys()].reverse()
        for (const index of order) {
          const { mode, server: { child, key, port } } = servers[index]!
          const before = cpuSecondsOf(child.pid!)
          const result = await measureThroughput({ port, path: ROUTE_PATHS[route], connections: 64, pipeline: 4, durationMs, headers: { "x-api-key": key } })
          if (result.errors > 0) throw new Error(`${route} (metrics ${mode}): ${result.errors} errors`)
          best[index]!.set(route, Math.max(best[index]!.get(route) ?? 0, result.requestsPerSecond))
          cpu[index]!.set(route, Math.min(cpu[index]!.get(route) ?? Infinity, (cpuSecondsOf(child.pid!) - before) / result.responses))
        }
      }
    }
    const ofMode = (figures: ReadonlyArray<Map<string, number>>, mode: Mode, route: string) =>
      servers.flatMap((server, index) => (server.mode === mode ? [figures[index]!.get(route)!] : []))
    const figures: Record<string, number> = {}
    for (const route of KEYED_ROUTES) {
      const rate = { off: ofMode(best, "off", route), on: ofMode(best, "on", route) }
      const perRequest = { off: ofMode(cpu, "off", route), on: ofMode(cpu, "on", route) }
      figures[`${route} req/s metrics off`] = Math.round(median(rate.off))
      figures[`${route} req/s metrics on`] = Math.round(median(rate.on))
      const spread = (values: ReadonlyArray<number>) => Math.max(...values) / Math.min(...values)
      figures[`${route} req/s spread of one mode's processes (max/min)`] = ratio(Math.max(spread(rate.off), spread(rate.on)))
      figures[`${route} on/off by req/s (target >= 0.95)`] = ratio(median(rate.on) / median(rate.off))
      figures[`${route} on/off by server CPU per request (target >= 0.95)`] = ratio(median(perRequest.off) / median(perRequest.on))
    }
    return figures
  } finally {
    for (const { server } of servers) server.child.kill("SIGTERM")
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
  ...(await httpOverhead(3, 2, 3_000, 1_000)),
  ...(await wsOverhead())
})

if (import.meta.url === `file://${process.argv[1]}`) {
  console.table(await run())
  process.exit(0)
}
