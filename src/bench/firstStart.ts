import { type ChildProcess, spawn } from "node:child_process"
import { chmodSync, createWriteStream, mkdtempSync, readFileSync, rmSync } from "node:fs"
import { createServer } from "node:net"
import { tmpdir } from "node:os"
import { join } from "node:path"
import { fileURLToPath, pathToFileURL } from "node:url"
import { referenceLoopMs } from "./support/machineSpeed.ts"
import { childrenOf, cpuSecondsOf, mainThreadCpuSecondsOf } from "./support/processCpu.ts"

/**
 * A first `npm start` on the default scenario (DESIGN §7; issue #22): the server as `npm start`
 * runs it (`vault-gateway serve`, sandbox chain in process, embedded PostgreSQL) in a fresh
 * DATA_DIR, polled until `/ready` answers 200 and until the 30-day history is served
 * (`/v2/vault/{vault}/snapshots` answers 200 with 30 days). Memory is sampled all along: the serve
 * process's peak RSS (VmHWM, the kernel's own high-water mark) and, separately, the embedded
 * PostgreSQL's (postmaster and backends, summed by PSS so shared buffers count once). A fixed loop
 * timed before and after shows how fast the machine itself ran meanwhile.
 *
 *   npx tsx src/bench/firstStart.ts      (BENCH_SERVER_NODE_ARGS: extra node flags for the server)
 */
const HISTORY_DAYS = 30
const HISTORY_TARGET_SECONDS = 20
const RSS_TARGET_MB = 500
const GIVE_UP_MS = 600_000
const BIN = fileURLToPath(new URL("../../bin/vault-gateway.js", import.meta.url))

const freePort = (): Promise<number> =>
  new Promise((resolve, reject) => {
    const server = createServer()
    server.once("error", reject)
    server.listen(0, "127.0.0.1", () => {
      const { port } = server.address() as { port: number }
      server.close(() => resolve(port))
    })
  })

const statusField = (pid: number, field: string): number => {
  const match = new RegExp(`^${field}:\\s+(\\d+) kB`, "m").exec(readFileSync(`/proc/${pid}/status`, "latin1"))
  return match === null ? 0 : Number(match[1]) * 1024
}

const pssOf = (pid: number): number => {
  try {
    const match = /^Pss:\s+(\d+) kB/m.exec(readFileSync(`/proc/${pid}/smaps_rollup`, "latin1"))
    return match === null ? 0 : Number(match[1]) * 1024
  } catch {
    return 0
  }
}

/** The embedded PostgreSQL's postmaster, once its pid file is written. */
const postmasterOf = (dataDir: string): number | null => {
  try {
    const pid = Number(readFileSync(join(dataDir, "postgres", "postmaster.pid"), "latin1").split("\n")[0])
    return Number.isInteger(pid) && pid > 0 ? pid : null
  } catch {
    return null
  }
}

const get = async (port: number, path: string, headers: Record<string, string> = {}) => {
  try {
    const response = await fetch(`http://127.0.0.1:${port}${path}`, { headers, signal: AbortSignal.timeout(5_000) })
    return { status: response.status, body: await response.text() }
  } catch {
    return { status: 0, body: "" }
  }
}

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms))

/** Lines of the server's log that end a phase of the first start, by the figure they give. */
const MILESTONES = {
  "sandbox history generated": "sandbox chain ready",
  "history backfill complete": "history backfill: complete",
  "history rollup live": "history rollup: live"
} as const

type Milestone = keyof typeof MILESTONES

/** Calls `seen` with each milestone the first time one of the child's output lines names it. */
const watchMilestones = (child: ChildProcess, seen: (milestone: Milestone) => void): void => {
  let pending = ""
  const remaining = new Set(Object.keys(MILESTONES) as Array<Milestone>)
  child.stdout!.on("data", (chunk: Buffer) => {
    const lines = (pending + chunk.toString("utf8")).split("\n")
    pending = lines.pop() ?? ""
    for (const line of lines) {
      for (const milestone of remaining) {
        if (!line.includes(MILESTONES[milestone])) continue
        remaining.delete(milestone)
        seen(milestone)
      }
    }
  })
}

const startServe = (dataDir: string, port: number): ChildProcess => {
  const extra = (process.env.BENCH_SERVER_NODE_ARGS ?? "").split(" ").filter((arg) => arg !== "")
  // The default run: no database or chain of the caller's environment.
  const env: NodeJS.ProcessEnv = { ...process.env, DATA_DIR: dataDir, PORT: String(port), METRICS_PORT: "0" }
  for (const name of ["DATABASE_URL", "RPC_URL", "RPC_WS_URL"]) delete env[name]
  const child = spawn(process.execPath, [...extra, BIN, "serve"], {
    env,
    stdio: ["ignore", "pipe", "pipe"]
  })
  // BENCH_SERVER_LOG: copy the server's output to this file
  const log = process.env.BENCH_SERVER_LOG === undefined ? undefined : createWriteStream(process.env.BENCH_SERVER_LOG)
  if (log !== undefined) {
    child.stdout!.pipe(log)
    child.stderr!.pipe(log)
  } else {
    child.stdout!.resume()
    child.stderr!.resume()
  }
  return child
}

export const run = async (): Promise<Record<string, number>> => {
  const loopBefore = referenceLoopMs()
  const dataDir = mkdtempSync(join(tmpdir(), "vg-first-start-"))
  chmodSync(dataDir, 0o755) // the embedded PostgreSQL runs as its own user when this runs as root
  const port = await freePort()
  const started = performance.now()
  const child = startServe(dataDir, port)
  const pid = child.pid!
  let exited = false
  child.once("exit", () => (exited = true))
  // where the time goes: when each phase ended, in seconds from the start
  const phases: Partial<Record<Milestone, number>> = {}
  watchMilestones(child, (milestone) => (phases[milestone] = (performance.now() - started) / 1000))
  let postgresPeak = 0
  let serveRssPeak = 0
  const sampler = setInterval(() => {
    if (exited) return
    try {
      serveRssPeak = Math.max(serveRssPeak, statusField(pid, "VmHWM"))
    } catch {
      // exited between the check and the read
    }
    const postmaster = postmasterOf(dataDir)
    if (postmaster !== null) {
      const pss = [postmaster, ...childrenOf(postmaster)].reduce((sum, p) => sum + pssOf(p), 0)
      postgresPeak = Math.max(postgresPeak, pss)
    }
  }, 200)
  const seconds = () => (performance.now() - started) / 1000
  try {
    let readyAt: number | null = null
    let historyAt: number | null = null
    let vault: string | null = null
    let key: string | null = null
    let historyCpu = 0
    let historyMainThreadCpu = 0
    while (historyAt === null) {
      if (exited) throw new Error("the server exited before serving its history")
      if (performance.now() - started > GIVE_UP_MS) throw new Error(`no history after ${GIVE_UP_MS / 1000} s`)
      await sleep(100)
      if (readyAt === null && (await get(port, "/ready")).status === 200) readyAt = seconds()
      if (key === null) {
        try {
          key = readFileSync(join(dataDir, "sandbox-partner-key"), "latin1").trim()
        } catch {
          continue
        }
      }
      if (vault === null) {
        const list = await get(port, "/v2/vaults", { "x-api-key": key })
        if (list.status !== 200) continue
        vault = /"bundleKey":"(\w+)"/.exec(list.body)?.[1] ?? null
        if (vault === null) throw new Error(`no vault address in /v2/vaults: ${list.body.slice(0, 200)}`)
      }
      const snapshots = await get(port, `/v2/vault/${vault}/snapshots?limit=${HISTORY_DAYS}`, { "x-api-key": key })
      if (snapshots.status === 200) {
        const days = (snapshots.body.match(/"date":/g) ?? []).length
        if (days >= HISTORY_DAYS) {
          historyAt = seconds()
          historyCpu = cpuSecondsOf(pid)
          historyMainThreadCpu = mainThreadCpuSecondsOf(pid)
        }
      }
    }
    // Memory after the start-up work, for a few more seconds of steady state.
    await sleep(3_000)
    const mb = (bytes: number) => Math.round(bytes / 1024 / 1024)
    const loopAfter = referenceLoopMs()
    return {
      [`first start: /ready s`]: Number((readyAt ?? Number.NaN).toFixed(1)),
      [`first start: ${HISTORY_DAYS}-day history served s (target <= ${HISTORY_TARGET_SECONDS})`]: Number(historyAt.toFixed(1)),
      // CPU the serve process used by then: steadier than the wall clock when other work shares the cores
      [`first start: serve process CPU s until the history is served`]: Number(historyCpu.toFixed(1)),
      // JavaScript runs on the main thread (the sandbox chain's too): near the wall clock, it is the
      // limit. The other threads are V8's helpers (parallel and concurrent GC, compilers) and libuv's
      // pool; on 2 cores they share the second one with PostgreSQL.
      [`first start: serve main thread CPU s (its JavaScript)`]: Number(historyMainThreadCpu.toFixed(1)),
      [`first start: serve other threads CPU s (V8's GC and compilers, libuv's pool)`]: Number((historyCpu - historyMainThreadCpu).toFixed(1)),
      ...Object.fromEntries(
        (Object.keys(MILESTONES) as Array<Milestone>).map((milestone) => [`first start: ${milestone} at s`, Number((phases[milestone] ?? Number.NaN).toFixed(1))])
      ),
      [`first start: serve process peak RSS MB (target < ${RSS_TARGET_MB})`]: mb(serveRssPeak),
      [`first start: embedded PostgreSQL peak PSS MB (postmaster + backends)`]: mb(postgresPeak),
      // the machine's own speed at the time: the wall-clock figures above scale with it
      [`first start: reference loop ms before the run (higher: a slower machine)`]: loopBefore,
      [`first start: reference loop ms after the run`]: loopAfter
    }
  } finally {
    clearInterval(sampler)
    if (!exited) {
      const gone = new Promise((resolve) => child.once("exit", resolve))
      child.kill("SIGTERM")
      await Promise.race([gone, sleep(20_000)])
    }
    rmSync(dataDir, { recursive: true, force: true })
  }
}

if (import.meta.url === pathToFileURL(process.argv[1] ?? "").href) {
  console.log(await run())
}
