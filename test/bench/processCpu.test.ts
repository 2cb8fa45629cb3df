import { spawn } from "node:child_process"
import { once } from "node:events"
import { describe, expect, it } from "vitest"
import { cpuSecondsOf, cpuSecondsWithChildren } from "../../src/bench/support/processCpu.ts"

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
