import fs from "node:fs"
import { afterAll, describe, expect, it } from "vitest"
import { freeLoopbackPort } from "../../layers/postgres/EmbeddedPostgres.ts"
import { tempDir } from "../../src/bench/support/testDatabase.ts"
import { sandboxWallets, signAndSend, type SandboxWallet } from "../api/builds/sandboxSigning.ts"
import { sandboxCall } from "../support/ingestHarness.ts"
import { CLI, descendants, isAlive, killAll, type RunningProcess, startProcess, waitForGone } from "../support/processTree.ts"

/**
 * The default local run keeps its state: the sandbox chain lives in DATA_DIR, so a restart resumes
 * the same chain and the gateway resumes from its checkpoint. Over real processes, embedded PostgreSQL.
 */
const AUTOPILOT = "J7qhMAKnB6G5dvoAN9281ufabajKbyGQxxd2bq6R7fPJ"
const dataDir = tempDir("vg-restart-")
afterAll(() => fs.rmSync(dataDir, { recursive: true, force: true }))

let port = 0
const url = () => `http://127.0.0.1:${port}`
const started: Array<RunningProcess> = []

const serve = async () => {
  const gateway = startProcess(process.execPath, [CLI, "serve"], {
    DATA_DIR: dataDir,
    PORT: String(port),
    DATABASE_URL: undefined,
    RPC_URL: undefined,
    SANDBOX_USERS: "20",
    SANDBOX_BUILDERS: "2",
    SANDBOX_HISTORY_DAYS: "2",
    SANDBOX_SLOT_MS: "200"
  })
  started.push(gateway)
  const [, key] = await gateway.waitForOutput(/sandbox partner key: (vg_sandbox_\w+)/, 30_000)
  const deadline = Date.now() + 90_000
  while ((await fetch(`${url()}/ready`).catch(() => null))?.status !== 200) {
    if (Date.now() > deadline) throw new Error(`not ready in 90 s:\n${gateway.output()}`)
    await new Promise((r) => setTimeout(r, 250))
  }
  const status = (await (await fetch(`${url()}/status`)).json()) as { rpcUrl: string }
  const info = (await sandboxCall(status.rpcUrl, "sandbox_info")) as { genesisHash: string }
  return { gateway, key: key!, rpcUrl: status.rpcUrl, genesisHash: info.genesisHash }
}

const stop = async (gateway: RunningProcess, signal: "SIGINT" | "SIGKILL") => {
  const tree = descendants(gateway.child.pid!)
  gateway.child.kill(signal)
  await gateway.exited
  // after SIGKILL the embedded database is left; the next start stops it
  if (signal === "SIGINT") expect(await waitForGone(tree, 10_000)).toEqual([])
}

const balanceStatus = async (key: string, wallet: string) =>
  (await fetch(`${url()}/v2/vault/${AUTOPILOT}/user/${wallet}/balance`, { headers: { "x-api-key": key } })).status

const deposit = async (rpcUrl: string, wallet: SandboxWallet) => {
  const build = () =>
    fetch(`${url()}/v2/vault/${AUTOPILOT}/tx/deposit`, {
      method: "POST",
      headers: { "content-type": "application/json" },
      body: JSON.stringify({ userAddress: wallet.address, amountRaw: "250000000" })
    })
  let built = await build()
  // 503 until the first blockhash is cached, just after start-up
  for (let i = 0; built.status === 503 && i < 40; i++) {
    await new Promise((r) => setTimeout(r, 250))
    built = await build()
  }
  expect(built.status).toBe(200)
  const body = (await built.json()) as { data: { transactionBase64: string; validation: { accepted: boolean } } }
  expect(body.data.validation.accepted).toBe(true)
  const signature = await signAndSend(rpcUrl, wallet, body.data.transactionBase64)
  // confirmed by the sandbox
  for (;;) {
    const { value } = (await sandboxCall(rpcUrl, "getSignatureStatuses", [[signature]])) as {
      value: Array<{ confirmationStatus: string; err: unknown } | null>
    }
    if (value[0] !== null && value[0]!.confirmationStatus !== "processed") {
      expect(value[0]!.err).toBeNull()
      return signature
    }
    await new Promise((r) => setTimeout(r, 50))
  }
}

const waitForPosition = async (key: string, wallet: string) => {
  const deadline = Date.now() + 30_000
  while ((await balanceStatus(key, wallet)) !== 200) {
    if (Date.now() > deadline) throw new Error(`no position of ${wallet} in 30 s`)
    await new Promise((r) => setTimeout(r, 200))
  }
}

describe("the sandbox chain survives restarts", () => {
  afterAll(() => {
    for (const process of started) killAll([process.child.pid!, ...descendants(process.child.pid!)].filter(isAlive))
  })

  it("SIGINT, start again: same genesis, the user's deposit, resumed from the checkpoint, same key; SIGKILL loses nothing confirmed", async () => {
    port = await freeLoopbackPort()
    const first = await serve()
    expect(first.gateway.output()).toMatch(/history backfill: \d+ past transactions to fetch/)
    const wallets = (await sandboxWallets(first.rpcUrl)).filter((w) => w.role === "user")
    const newcomers: Array<SandboxWallet> = []
    for (const wallet of wallets) if ((await balanceStatus(first.key, wallet.address)) === 404) newcomers.push(wallet)
    expect(newcomers.length).toBeGreaterThanOrEqual(2)
    const [alice, bob] = newcomers as [SandboxWallet, SandboxWallet]
    await deposit(first.rpcUrl, alice)
    await waitForPosition(first.key, alice.address)
    // the history backfill done (stopped earlier, the next start would fetch the rest, not refetch)
    await first.gateway.waitForOutput(/history backfill: complete/, 60_000)
    await stop(first.gateway, "SIGINT")
    const [, checkpointSlot] = first.gateway.output().match(/last checkpoint written at slot (\d+)/)!

    const second = await serve()
    expect(second.genesisHash).toBe(first.genesisHash)
    expect(second.key).toBe(first.key)
    expect(second.gateway.output()).toMatch(/sandbox chain resumed/)
    expect(second.gateway.output()).toContain(`at slot ${checkpointSlot}`)
    const refetch = second.gateway.output().match(/.*past transactions to fetch.*/)
    expect(refetch?.[0] ?? null).toBeNull()
    expect(await balanceStatus(second.key, alice.address)).toBe(200)

    // confirmed, then the server is killed at once: still there after the restart
    await deposit(second.rpcUrl, bob)
    await stop(second.gateway, "SIGKILL")
    const third = await serve()
    expect(third.genesisHash).toBe(first.genesisHash)
    await waitForPosition(third.key, bob.address)
    expect(await balanceStatus(third.key, alice.address)).toBe(200)
    await stop(third.gateway, "SIGINT")
  }, 240_000)
})
