import fs from "node:fs"
import { afterAll, describe, expect, it } from "vitest"
import { tempDir } from "../../src/bench/support/testDatabase.ts"
import { CLI, startProcess } from "../support/processTree.ts"
import { VERSION } from "../../src/version.ts"

/**
 * `keys` and `codes` while `serve` runs on the embedded PostgreSQL: they connect to the server's
 * database (not refusing, not starting a second one), and the server honours each change.
 */
const dataDir = tempDir("vg-beside-")
afterAll(() => fs.rmSync(dataDir, { recursive: true, force: true }))

// always the embedded database, even where CI provides DATABASE_URL
const env = { DATA_DIR: dataDir, PORT: "0", CLUSTER: "sandbox", DATABASE_URL: undefined, SANDBOX_USERS: "20", SANDBOX_BUILDERS: "2", SANDBOX_HISTORY_DAYS: "0" }
const startCli = (args: ReadonlyArray<string>, extra: Record<string, string | undefined> = env) => startProcess(process.execPath, [CLI, ...args], extra)
const runCli = async (args: ReadonlyArray<string>, extra: Record<string, string | undefined> = env) => {
  const running = startCli(args, extra)
  const code = await running.exited
  return { code, output: running.output() }
}
const cli = (...args: Array<string>) => runCli(args)

const until = async (what: string, check: () => Promise<boolean>, timeoutMs = 60_000) => {
  const deadline = Date.now() + timeoutMs
  while (!(await check())) {
    if (Date.now() > deadline) throw new Error(`${what}: not within ${timeoutMs} ms`)
    await new Promise((r) => setTimeout(r, 250))
  }
}

describe("the command line beside a running server", () => {
  it("--version prints the package version", async () => {
    const { code, output } = await runCli(["--version"], {})
    expect(code).toBe(0)
    expect(output.trim()).toBe(`vault-gateway ${VERSION}`)
  })

  it("keys issue, keys revoke and codes set against a running serve are honoured within 60 s", async () => {
    const serve = startCli(["serve"], env)
    try {
      const [, url] = await serve.waitForOutput(/listening on (http:\/\/[\d.]+:\d+)/, 30_000)
      await serve.waitForOutput(/sandbox partner key: vg_/, 30_000)
      const postgresPid = fs.readFileSync(`${dataDir}/postgres/postmaster.pid`, "utf8").split("\n")[0]

      const issued = await cli("keys", "issue", "--name", "beside", "--quota-limit", "50", "--quota-window-seconds", "60")
      expect(issued.code, issued.output).toBe(0)
      const id = issued.output.match(/id: ([0-9a-f-]{36})/)![1]!
      const key = issued.output.match(/key: (vg_\w+)/)![1]!
      const keyed = () => fetch(`${url}/v2/vaults`, { headers: { "x-api-key": key } }).then((r) => r.status)
      let started = Date.now()
      await until("the issued key accepted", async () => (await keyed()) !== 401)
      const acceptedMs = Date.now() - started

      const listed = await cli("keys", "list")
      expect(listed.code).toBe(0)
      expect(listed.output).toMatch(new RegExp(`${id}\\s+beside\\s+sandbox\\s+vg_sandbox_\\.\\.\\.${key.slice(-4)}\\s+-\\s+50/60s\\s+active`))

      const revoked = await cli("keys", "revoke", id)
      expect(revoked.code).toBe(0)
      started = Date.now()
      await until("the revoked key refused", async () => (await keyed()) === 401)
      const refusedMs = Date.now() - started
      console.log(`issued key accepted after ${acceptedMs} ms, revoked key refused after ${refusedMs} ms`)

      const wallet = "J7qhMAKnB6G5dvoAN9281ufabajKbyGQxxd2bq6R7fPJ"
      const set = await cli("codes", "set", "BESIDE", wallet)
      expect(set.code).toBe(0)
      await until("the code resolving", async () => {
        const response = await fetch(`${url}/public/codes/beside`)
        return response.status === 200 && ((await response.json()) as { data: { referrer: string } }).data.referrer === wallet
      })
      const codes = await cli("codes", "list")
      expect(codes.code).toBe(0)
      expect(codes.output.split("\n")[0]).toMatch(/^CODE\s+WALLET\s+ENABLED\s+CHANGED$/)
      expect(codes.output).toMatch(new RegExp(`BESIDE\\s+${wallet}\\s+yes`))

      // the commands used the server's database: it is the same postgres, still serving
      expect(fs.readFileSync(`${dataDir}/postgres/postmaster.pid`, "utf8").split("\n")[0]).toBe(postgresPid)
      expect((await fetch(`${url}/health`)).status).toBe(200)
    } finally {
      serve.child.kill("SIGINT")
      expect(await serve.exited).toBe(0)
    }
  }, 180_000)
})
