import { spawn } from "node:child_process"
import { once } from "node:events"
import { describe, expect, it } from "vitest"
import { cpuSecondsOf, cpuSecondsWithChildren, mainThreadCpuSecondsOf } from "../../src/bench/support/processCpu.ts"

const BURN_MS = 400
const burn = `const end = Date.now() + ${BURN_MS}; while (Date.now() < end) {}`

describe("cpuSecondsWithChildren (PostgreSQL's CPU in the benchmarks)", () => {
  it("counts a child that ended (and was waited for) and a live one, besides the process itself", async () => {
    // a parent that runs one child to its end, then starts one that burns and stays, then idles
    const parent = spawn(process.execPath, ["-e", `
      const { spawn, spawnSync } = require("node:child_process")
      spawnSync(process.execPath, ["-e", ${JSON.stringify(burn)}])
      spawn(process.execPath, ["-e", ${JSON.stringify(`${burn}; setTimeout(() => {}, 30000)`)}], { stdio: "ignore" })
      process.stdout.write("started\\n")
      setTimeout(() => {}, 30000)`], { stdio: ["ignore", "pipe", "inherit"], detached: true })
    try {
      await once(parent.stdout!, "data")
      await new Promise((resolve) => setTimeout(resolve, BURN_MS + 300))
      const own = cpuSecondsOf(parent.pid!)
      const withChildren = cpuSecondsWithChildren(parent.pid!)
      // each child burnt BURN_MS; the parent itself only started two processes
      expect(own).toBeLessThan(BURN_MS / 1000)
      expect(withChildren - own).toBeGreaterThan((2 * BURN_MS * 0.8) / 1000)
    } finally {
      process.kill(-parent.pid!, "SIGKILL") // the parent and the child still running
    }
  })
})

describe("mainThreadCpuSecondsOf (the first start's JavaScript thread)", () => {
  it("counts the main thread only: a worker thread's CPU is in the process's and not in it", async () => {
    // the main thread burns BURN_MS, a worker thread three times as long, then both idle
    const child = spawn(process.execPath, ["-e", `
      const { Worker } = require("node:worker_threads")
      const worker = new Worker(${JSON.stringify(burn.replace(String(BURN_MS), String(3 * BURN_MS)))}, { eval: true })
      ${burn}
      worker.once("exit", () => { process.stdout.write("done\\n"); setTimeout(() => {}, 30000) })`], { stdio: ["ignore", "pipe", "inherit"] })
    try {
      await once(child.stdout!, "data")
      const main = mainThreadCpuSecondsOf(child.pid!)
      const all = cpuSecondsOf(child.pid!)
      expect(main).toBeGreaterThan((BURN_MS * 0.8) / 1000)
      expect(main).toBeLessThan((2 * BURN_MS) / 1000)
      expect(all - main).toBeGreaterThan((3 * BURN_MS * 0.8) / 1000)
    } finally {
      child.kill("SIGKILL")
    }
  })
})
