import fs from "node:fs"
import path from "node:path"
import { Effect, Exit, Redacted, Scope } from "effect"
import { afterAll, beforeAll, describe, expect, it } from "vitest"
import { embeddedPostgres } from "../../layers/postgres/EmbeddedPostgres.ts"
import { newWallet, signInProof } from "../api/controlPlane/signInWallet.ts"
import { type RunningCli, startCli } from "../support/cli.ts"
import { serverUrl, tempDir } from "../../src/bench/support/testDatabase.ts"

/**
 * Two `serve` processes on one PostgreSQL and one standalone sandbox chain, as behind a load
 * balancer: a sign-in begun on one completes on the other, and a key revoked on one is refused by
 * the other within 60 s.
 */
const ORIGIN = "http://gateway.test"
const dataDir = tempDir("vg-cp2-")
const scope = Effect.runSync(Scope.make())
const processes: Array<RunningCli> = []
let databaseUrl = ""
let urlA = ""
let urlB = ""

const startGateway = async (name: string, rpc: string, ws: string) => {
  const gateway = startCli(["serve"], {
    DATA_DIR: path.join(dataDir, name),
    PORT: "0",
    CLUSTER: "sandbox",
    DATABASE_URL: databaseUrl,
    RPC_URL: rpc,
    RPC_WS_URL: ws,
    PUBLIC_ORIGIN: ORIGIN,
    LOG_FORMAT: "json"
  })
  processes.push(gateway)
  const [, url] = await gateway.waitForOutput(/listening on (http:\/\/[\d.]+:\d+)/, 90_000)
  return url!
}

const call = async (url: string, method: string, route: string, options: { body?: unknown; cookie?: string; key?: string } = {}) => {
  const response = await fetch(`${url}${route}`, {
    method,
    headers: {
      ...(method === "POST" ? { origin: ORIGIN } : {}),
      ...(options.cookie === undefined ? {} : { cookie: options.cookie }),
      ...(options.key === undefined ? {} : { "x-api-key": options.key }),
      ...(options.body === undefined ? {} : { "content-type": "application/json" })
    },
    ...(options.body === undefined ? {} : { body: JSON.stringify(options.body) })
  })
  const text = await response.text()
  return { status: response.status, headers: response.headers, body: text === "" ? undefined : JSON.parse(text) }
}

beforeAll(async () => {
  const server = serverUrl()
  if (server !== undefined) {
    databaseUrl = server
  } else {
    const connection = await Effect.runPromise(Scope.extend(embeddedPostgres(path.join(dataDir, "pg")), scope))
    databaseUrl = `postgres://${connection.username}:${encodeURIComponent(Redacted.value(connection.password))}@${connection.host}:${connection.port}/${connection.database}`
  }
  const sandbox = startCli(["sandbox", "--port", "0", "--users", "10", "--builders", "1"])
  processes.push(sandbox)
  const [, rpc] = await sandbox.waitForOutput(/sandbox JSON-RPC: (\S+)/, 60_000)
  const [, ws] = await sandbox.waitForOutput(/sandbox PubSub:\s+(\S+)/, 60_000)
  // one after the other: the first applies the migrations
  urlA = await startGateway("a", rpc!, ws!)
  urlB = await startGateway("b", rpc!, ws!)
}, 240_000)

afterAll(async () => {
  for (const running of processes.reverse()) {
    running.child.kill("SIGINT")
    await running.exited
  }
  await Effect.runPromise(Scope.close(scope, Exit.void))
  fs.rmSync(dataDir, { recursive: true, force: true })
}, 60_000)

describe("control plane on two instances sharing one database", () => {
  it("a sign-in begun on one completes on the other; a key revoked on one is refused by the other", async () => {
    const wallet = newWallet()
    const nonce = await call(urlA, "POST", "/v2/auth/nonce")
    expect(nonce.status).toBe(200)
    const verified = await call(urlB, "POST", "/v2/auth/verify", { body: signInProof(wallet, nonce.body.data) })
    expect(verified.status, JSON.stringify(verified.body)).toBe(200)
    const cookie = verified.headers.get("set-cookie")!.split(";")[0]!
    const session = await call(urlA, "GET", "/v2/auth/session", { cookie })
    expect(session.body.data.session.wallet).toBe(wallet.address)

    const claimed = await call(urlA, "POST", "/v2/org/codes", { cookie, body: { code: "twin" } })
    expect(claimed.status).toBe(200)
    expect((await call(urlB, "GET", "/public/codes/TWIN")).body.data.referrer).toBe(wallet.address)

    const issued = await call(urlA, "POST", "/v2/org/keys", { cookie, body: { name: "both", scopes: ["reads"] } })
    const key: string = issued.body.data.key
    // authenticated on B (the read itself may still wait for B's projection: 200 or 503)
    expect((await call(urlB, "GET", "/v2/vaults", { key })).status).not.toBe(401)
    const revoked = await call(urlA, "POST", `/v2/org/keys/${issued.body.data.apiKey.id}/revoke`, { cookie })
    expect(revoked.status).toBe(200)
    const started = Date.now()
    let status = 0
    while (Date.now() - started < 60_000) {
      status = (await call(urlB, "GET", "/v2/vaults", { key })).status
      if (status === 401) break
      await new Promise((resolve) => setTimeout(resolve, 200))
    }
    expect(status).toBe(401)
    expect(Date.now() - started).toBeLessThan(60_000)

    // neither process wrote the key or the session token
    const token = cookie.split("=")[1]!
    for (const running of processes) {
      expect(running.output()).not.toContain(key)
      expect(running.output()).not.toContain(token)
    }
  }, 120_000)
})
