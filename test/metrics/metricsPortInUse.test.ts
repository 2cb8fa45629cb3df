import fs from "node:fs"
import net from "node:net"
import type { AddressInfo } from "node:net"
import { afterAll, describe, expect, it } from "vitest"
import { tempDir } from "../../src/bench/support/testDatabase.ts"
import { runCli } from "../support/cli.ts"

describe("serve with its metrics port taken", () => {
  const dir = tempDir("vg-metrics-port-")
  afterAll(() => fs.rmSync(dir, { recursive: true, force: true }))

  it("stops at start-up with one line naming the address and METRICS_PORT, no stack", async () => {
    const taken = net.createServer()
    await new Promise<void>((resolve) => taken.listen(0, "127.0.0.1", resolve))
    const port = (taken.address() as AddressInfo).port
    try {
      const { code, output } = await runCli(["serve"], {
        DATA_DIR: dir,
        PORT: "0",
        METRICS_PORT: String(port),
        SANDBOX_USERS: "10",
        SANDBOX_HISTORY_DAYS: "1"
      })
      expect(code).toBe(1)
      const last = output.trim().split("\n").at(-1)
      expect(last).toBe(`vault-gateway: the metrics listener cannot bind 127.0.0.1:${port} (METRICS_PORT): listen EADDRINUSE: address already in use 127.0.0.1:${port}`)
      expect(output).not.toMatch(/^\s+at /m)
    } finally {
      taken.close()
    }
  }, 60_000)
})
