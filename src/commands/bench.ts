import { spawn } from "node:child_process"
import { settle } from "../bench/support/settle.ts"
import { EXIT_USAGE, type Command } from "./Command.ts"

/** The benchmarks of `src/bench`: what each measures. */
const BENCHMARKS = {
  projectionApply: "projection apply vs a plain loop keeping the same position indexes from the raw bytes, same updates, same end state checked",
  httpTransport: "GET /status through the contract transport vs bare uWS, same client, same run",
  vaultReads: "GET /v2/vault/{address}, /v2/vaults and /v2/referrer/{address}/summary (real partner key middleware) vs bare uWS, same client, same run",
  referrerReads: "GET /v2/referrer/{address}/summary (real partner key middleware, vs bare uWS by req/s and server CPU per request) and /users for a builder with ~100,000 attributed users (BENCH_BULK_USERS)",
  txBuild: "unsigned transaction builds with a cached blockhash",
  txBuildHttp: "the same builds through the HTTP server (keep-alive POSTs, server in a child process)",
  wsFanout: "projection change -> WebSocket frame at 5,000 changes/s to 1,000 clients",
  wsLatency: "chain notification received -> WebSocket frame published (server side), 5,000 account updates/s, 1,000 clients",
  checkpointRestore: "checkpoint write and restart to live with 1M positions (BENCH_ACCOUNTS to change)",
  metricsOverhead: "vaultReads' keyed reads (three server processes per mode) and wsLatency with the Prometheus metrics off and on, same run",
  userHistory: "a page of a wallet's activity feed and position history with 1 and with 10,000 events (BENCH_USER_EVENTS): O(page)",
  sharedQuotaReads: "GET /v2/vault/{address} (real partner key middleware) with the key's quota counted in PostgreSQL across instances (SHARED_LIMITS) vs in memory, by req/s and server CPU per request, same run",
  firstStart: "a first `serve` on the default scenario in a fresh DATA_DIR: seconds to /ready and to the 30-day history served, the serve process's peak RSS and the embedded PostgreSQL's"
} as const

type BenchmarkName = keyof typeof BENCHMARKS

interface Benchmark {
  readonly run: () => Promise<Record<string, number>>
}

/** Loaded on demand (a benchmark imports a server's worth of modules), named statically. */
const LOADERS: { readonly [K in BenchmarkName]: () => Promise<Benchmark> } = {
  projectionApply: () => import("../bench/projectionApply.ts"),
  httpTransport: () => import("../bench/httpTransport.ts"),
  vaultReads: () => import("../bench/vaultReads.ts"),
  referrerReads: () => import("../bench/referrerReads.ts"),
  txBuild: () => import("../bench/txBuild.ts"),
  txBuildHttp: () => import("../bench/txBuildHttp.ts"),
  wsFanout: () => import("../bench/wsFanout.ts"),
  wsLatency: () => import("../bench/wsLatency.ts"),
  checkpointRestore: () => import("../bench/checkpointRestore.ts"),
  metricsOverhead: () => import("../bench/metricsOverhead.ts"),
  userHistory: () => import("../bench/userHistory.ts"),
  sharedQuotaReads: () => import("../bench/sharedQuotaReads.ts"),
  firstStart: () => import("../bench/firstStart.ts")
}

const HELP = `usage: vault-gateway bench [name ...]

Runs the benchmarks (all by default), each in a fresh process of its own, and prints their
figures; ratios are measured side by side in one run, since absolute times drift on shared
machines.

${Object.entries(BENCHMARKS).map(([name, what]) => `  ${name.padEnd(18)} ${what}`).join("\n")}
`

const isBenchmark = (name: string): name is BenchmarkName => Object.hasOwn(BENCHMARKS, name)

const runHere = async (name: BenchmarkName): Promise<void> => {
  process.stdout.write(`\n== ${name}: ${BENCHMARKS[name]}\n`)
  const figures = await (await LOADERS[name]()).run()
  for (const [figure, value] of Object.entries(figures)) process.stdout.write(`  ${figure}: ${value}\n`)
}

/**
 * One benchmark in a process of its own (this CLI, same node flags): what an earlier one leaves
 * behind (a heap of 100,000 users, an in-process server's timers) would otherwise tax the next one's
 * latency tail, and figures of a whole run would not match the same benchmark run alone.
 */
const runApart = (name: BenchmarkName): Promise<number> =>
  new Promise((resolve, reject) => {
    const child = spawn(process.execPath, [...process.execArgv, process.argv[1]!, "bench", name], { stdio: "inherit" })
    child.once("error", reject)
    child.once("exit", (code, signal) => resolve(code ?? (signal === null ? 1 : 128)))
  })

export const bench: Command = {
  run: async (args) => {
    if (args.includes("--help") || args.includes("-h")) {
      process.stdout.write(HELP)
      return 0
    }
    const unknown = args.filter((name) => !isBenchmark(name))
    if (unknown.length > 0) {
      process.stderr.write(`vault-gateway bench: unknown benchmark '${unknown[0]}'\n${HELP}`)
      return EXIT_USAGE
    }
    const names = args.length > 0 ? (args as Array<BenchmarkName>) : (Object.keys(BENCHMARKS) as Array<BenchmarkName>)
    if (names.length === 1) {
      await runHere(names[0]!)
      return 0
    }
    const failed: Array<string> = []
    for (const [index, name] of names.entries()) {
      if (index > 0) {
        const { waitedMs, settled } = await settle()
        if (!settled) process.stdout.write(`\n(the machine was still busy ${Math.round(waitedMs / 1000)} s after ${names[index - 1]}; going on)\n`)
      }
      if ((await runApart(name)) !== 0) failed.push(name)
    }
    if (failed.length > 0) process.stderr.write(`vault-gateway bench: failed: ${failed.join(", ")}\n`)
    return failed.length > 0 ? 1 : 0
  }
}
