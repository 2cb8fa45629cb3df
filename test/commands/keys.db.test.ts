import fs from "node:fs"
import * as Reactivity from "@effect/experimental/Reactivity"
import { PgClient } from "@effect/sql-pg"
import { Effect, Redacted } from "effect"
import { afterAll, beforeAll, describe, expect, it } from "vitest"
import { generateApiKey, hasValidChecksum } from "../../src/domain/partnerKeys/apiKeyFormat.ts"
import { runCli, startCli } from "../support/cli.ts"
import { serverUrl, tempDir } from "../../src/bench/support/testDatabase.ts"

/** The keys CLI and the sandbox key of `serve`, as child processes on a database of their own. */
const server = serverUrl()
const scratchDb = `vg_keys_${process.pid}`
let dataDir = ""

const admin = (statement: string) =>
  Effect.runPromise(
    Effect.scoped(Effect.flatMap(PgClient.make({ url: Redacted.make(server!) }), (sql) => sql.unsafe(statement))).pipe(
      Effect.provide(Reactivity.layer)
    )
  )

const env = (extra: Record<string, string> = {}): Record<string, string> => {
  const vars: Record<string, string> = { DATA_DIR: dataDir, PORT: "0", CLUSTER: "sandbox", ...extra }
  if (server !== undefined) {
    const url = new URL(server)
    url.pathname = `/${scratchDb}`
    vars.DATABASE_URL = url.toString()
  }
  return vars
}

const keysCli = (...args: Array<string>) => runCli(["keys", ...args], env())

const ID = /id: ([0-9a-f-]{36})/
const KEY = /key: (vg_\w+)/

const listed = async () => {
  const { code, output } = await keysCli("list", "--json")
  expect(code).toBe(0)
  return JSON.parse(output.trim().split("\n").at(-1)!) as Array<Record<string, any>>
}

beforeAll(async () => {
  dataDir = tempDir("vg-keys-")
  if (server !== undefined) await admin(`CREATE DATABASE ${scratchDb}`)
})

afterAll(async () => {
  if (server !== undefined) await admin(`DROP DATABASE IF EXISTS ${scratchDb} WITH (FORCE)`)
  fs.rmSync(dataDir, { recursive: true, force: true })
})

describe("vault-gateway keys", () => {
  it("issue prints the key once; list shows it without the key; rotate and revoke", async () => {
    const wallet = "Acme1111111111111111111111111111"
    const issued = await keysCli("issue", "--name", "acme", "--owner", wallet, "--quota-limit", "5", "--quota-window-seconds", "60")
    expect(issued.code).toBe(0)
    const id = issued.output.match(ID)![1]!
    const key = issued.output.match(KEY)![1]!
    expect(key).toMatch(/^vg_sandbox_/)
    expect(hasValidChecksum(key)).toBe(true)
    expect(issued.output).toMatch(/shown only this once/)

    const table = await keysCli("list")
    expect(table.code).toBe(0)
    expect(table.output).toContain(id)
    expect(table.output).toContain(`vg_sandbox_...${key.slice(-4)}`)
    expect(table.output.split("\n")[0]).toMatch(/^ID\s+NAME\s+ENVIRONMENT\s+KEY\s+OWNER\s+QUOTA\s+STATUS\s+CREATED$/)
    expect(table.output).toContain(wallet)
    expect(table.output).toMatch(/5\/60s/)
    expect(table.output).toMatch(/active/)
    expect(table.output).not.toContain(key)

    const [record] = await listed()
    expect(record).toMatchObject({ id, name: "acme", ownerWallet: wallet, environment: "sandbox", quotaLimit: 5, quotaWindowSeconds: 60, revokedAt: null })

    const rotated = await keysCli("rotate", id)
    expect(rotated.code).toBe(0)
    const newId = rotated.output.match(ID)![1]!
    const newKey = rotated.output.match(KEY)![1]!
    expect(newId).not.toBe(id)
    expect(newKey).not.toBe(key)
    expect(rotated.output).toMatch(new RegExp(`old key ${id} stays valid until \\S+Z`))
    const afterRotate = await listed()
    const old = afterRotate.find((r) => r.id === id)!
    const grace = (Date.parse(old.expiresAt) - Date.now()) / 1000
    expect(grace).toBeGreaterThan(0)
    expect(grace).toBeLessThanOrEqual(60)
    expect(afterRotate.find((r) => r.id === newId)).toMatchObject({ name: "acme", quotaLimit: 5, expiresAt: null, revokedAt: null })

    const revoked = await keysCli("revoke", newId)
    expect(revoked).toMatchObject({ code: 0 })
    expect(revoked.output).toContain(`revoked ${newId}`)
    expect((await listed()).find((r) => r.id === newId)!.revokedAt).not.toBeNull()

    const again = await keysCli("revoke", newId)
    expect(again.code).toBe(1)
    expect(again.output).toMatch(/no active partner key with id/)
  }, 60_000)

  it("issue for another environment, and usage errors", async () => {
    const prod = await keysCli("issue", "--name", "prod", "--environment", "mainnet")
    expect(prod.code).toBe(0)
    expect(prod.output.match(KEY)![1]).toMatch(/^vg_prod_/)

    expect((await keysCli("issue")).code).toBe(2)
    expect((await keysCli("issue", "--name", "x", "--owner", "not-a-wallet")).code).toBe(2)
    expect((await keysCli("issue", "--name", "x", "--environment", "testnet")).code).toBe(2)
    const limitAlone = await keysCli("issue", "--name", "x", "--quota-limit", "5")
    expect(limitAlone.code).toBe(2)
    expect(limitAlone.output).toMatch(/--quota-limit and --quota-window-seconds go together/)
    expect((await keysCli("frobnicate")).code).toBe(2)
    const unknownId = await keysCli("rotate", "nope")
    expect(unknownId.code).toBe(1)
    expect(unknownId.output).toMatch(/no active partner key with id nope/)
  }, 60_000)

  it("serve on the sandbox seeds SANDBOX_PARTNER_KEY verbatim, or the key kept in DATA_DIR (owned by a builder with a cohort), and prints it", async () => {
    const configured = generateApiKey("sandbox")
    const first = startCli(["serve"], env({ SANDBOX_PARTNER_KEY: configured, SANDBOX_HISTORY_DAYS: "0" }))
    const [, printed] = await first.waitForOutput(/sandbox partner key: (\S+)/, 30_000)
    expect(printed).toBe(configured)
    await first.waitForOutput(/listening on/, 30_000)
    if (server === undefined) {
      // beside the running server: on its database
      const beside = await keysCli("list")
      expect(beside.code).toBe(0)
      expect(beside.output).toContain(`vg_sandbox_...${configured.slice(-4)}`)
    }
    first.child.kill("SIGINT")
    expect(await first.exited).toBe(0)
    const seeded = (await listed()).find((r) => r.name === "sandbox" && r.last4 === configured.slice(-4))
    expect(seeded).toMatchObject({ environment: "sandbox", revokedAt: null })

    // Without SANDBOX_PARTNER_KEY: a key kept in DATA_DIR, the same at every start, owned by a
    // scenario builder with a cohort once the chain is up, so every partner route answers.
    const small = { SANDBOX_HISTORY_DAYS: "1", SANDBOX_USERS: "20", SANDBOX_BUILDERS: "2" }
    const second = startCli(["serve"], env(small))
    const [, kept] = await second.waitForOutput(/sandbox partner key: (\S+)/, 30_000)
    const [, url] = await second.waitForOutput(/listening on (http:\/\/[\d.]+:\d+)/, 30_000)
    const [, owner] = await second.waitForOutput(/sandbox key owner: wallet (\w+) \(a builder with (?!0 )\d+ referred/, 60_000)
    expect(kept).not.toBe(configured)
    expect(hasValidChecksum(kept!)).toBe(true)
    const headers = { "x-api-key": kept! }
    const deadline = Date.now() + 60_000
    let agreements = await fetch(`${url}/v2/partner/agreements`, { headers })
    while (agreements.status === 503 && Date.now() < deadline) {
      await new Promise((r) => setTimeout(r, 500))
      agreements = await fetch(`${url}/v2/partner/agreements`, { headers })
    }
    expect(agreements.status).toBe(200)
    const body = (await agreements.json()) as { data: { ownerWallet: string; vaults: Array<{ registered: boolean }> } }
    expect(body.data.ownerWallet).toBe(owner)
    expect(body.data.vaults.some((v) => v.registered)).toBe(true)
    expect((await fetch(`${url}/v2/referrer/${owner}/summary`, { headers })).status).toBe(200)
    second.child.kill("SIGINT")
    await second.exited

    const third = startCli(["serve"], env(small))
    const [, again] = await third.waitForOutput(/sandbox partner key: (\S+)/, 30_000)
    third.child.kill("SIGINT")
    await third.exited
    expect(again).toBe(kept)
    const sandboxKeys = (await listed()).filter((r) => r.name === "sandbox")
    expect(sandboxKeys.map((r) => r.last4).sort()).toEqual([configured.slice(-4), kept!.slice(-4)].sort())
    expect(sandboxKeys.find((r) => r.last4 === kept!.slice(-4))!.ownerWallet).toBe(owner)

    // revoked, the kept key stays refused at the next start (the log says how to get a new one)
    const keptId = sandboxKeys.find((r) => r.last4 === kept!.slice(-4))!.id as string
    expect((await keysCli("revoke", keptId)).code).toBe(0)
    const fourth = startCli(["serve"], env(small))
    const [, fourthUrl] = await fourth.waitForOutput(/listening on (http:\/\/[\d.]+:\d+)/, 30_000)
    await fourth.waitForOutput(/sandbox partner key was revoked .* stays refused/, 30_000)
    expect((await fetch(`${fourthUrl}/v2/vaults`, { headers })).status).toBe(401)
    fourth.child.kill("SIGINT")
    await fourth.exited
    expect((await listed()).find((r) => r.id === keptId)!.revokedAt).not.toBeNull()

    const refused = await runCli(["serve"], env({ SANDBOX_PARTNER_KEY: "vg_prod_abcdefghijklmnopqrstuvwxyz" }))
    expect(refused.code).toBe(2)
    expect(refused.output).toMatch(/SANDBOX_PARTNER_KEY: Expected a sandbox key starting with vg_sandbox_/)
    expect(refused.output).not.toContain("abcdefghijklmnop")
  }, 180_000)
})
