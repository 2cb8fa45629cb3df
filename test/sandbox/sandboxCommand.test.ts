import { createSolanaRpc } from "@solana/kit"
import { describe, expect, it } from "vitest"
import { parseSandboxArgs } from "../../src/commands/sandbox.ts"
import { startCli } from "../support/cli.ts"

describe("vault-gateway sandbox", () => {
  it("parses the scenario knobs", () => {
    expect(parseSandboxArgs(["--port", "0", "--users", "12", "--builders=3", "--activity", "0.5", "--history-days", "2", "--firehose"])).toEqual({
      options: { port: 0, users: 12, builders: 3, activity: 0.5, historyDays: 2, firehose: true }
    })
    expect(parseSandboxArgs(["--users", "many"])).toEqual({ error: "--users needs an integer >= 0, got 'many'" })
    expect(parseSandboxArgs(["--activity", "-1"])).toHaveProperty("error")
    expect(parseSandboxArgs(["--bulk-users", "1000001"])).toHaveProperty("error")
    expect(parseSandboxArgs(["--what"])).toEqual({ error: "unknown option '--what'" })
  })

  it("serves a seeded scenario on the printed URLs until SIGINT", async () => {
    const sandbox = startCli(["sandbox", "--port", "0", "--users", "6", "--builders", "1", "--history-days", "1", "--seed", "3"])
    try {
      const [, rpcUrl] = await sandbox.waitForOutput(/JSON-RPC: (http:\/\/[\d.]+:\d+)/, 30_000)
      await sandbox.waitForOutput(/PubSub: +ws:\/\//, 1_000)
      const rpc = createSolanaRpc(rpcUrl!)
      expect(await rpc.getHealth().send()).toBe("ok")
      const wallets = (await (await fetch(rpcUrl!, {
        method: "POST",
        headers: { "content-type": "application/json" },
        body: JSON.stringify({ jsonrpc: "2.0", id: 1, method: "sandbox_wallets", params: [] })
      })).json()) as { result: Array<{ role: string }> }
      expect(wallets.result.filter((w) => w.role === "user")).toHaveLength(6)
      expect(wallets.result.filter((w) => w.role === "builder")).toHaveLength(1)
    } finally {
      sandbox.child.kill("SIGINT")
    }
    expect(await sandbox.exited).toBe(0)
  }, 60_000)
})
