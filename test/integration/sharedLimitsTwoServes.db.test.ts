import fs from "node:fs"
import path from "node:path"
import { Effect, Exit, Redacted, Scope } from "effect"
import { afterAll, beforeAll, describe, expect, it } from "vitest"
import WebSocket from "ws"
import { embeddedPostgres } from "../../layers/postgres/EmbeddedPostgres.ts"
import { generateApiKey } from "../../src/domain/partnerKeys/apiKeyFormat.ts"
import { runCli, type RunningCli, startCli } from "../support/cli.ts"
import { serverUrl, tempDir } from "../../src/bench/support/testDatabase.ts"

/**
 * Two `serve` processes on one PostgreSQL (DATABASE_URL set: SHARED_LIMITS=auto shares the limits)
 * and one standalone sandbox chain: the sandbox key's quota and its WebSocket connection limit hold
 * across both, and the connections of a process killed with SIGKILL stop counting.
 */
const QUOTA = 20
const KEY = generateApiKey("sandbox")
const dataDir = tempDir("vg-limits2-")
const scope = Effect.runSync(Scope.make())
const processes: Array<RunningCli> = []
let databaseUrl = ""
const gateways: Array<{ running: RunningCli; url: string }> = []

const startGateway = async (name: string, rpc: string, ws: string) => {
  const running = startCli(["serve"], {
    DATA_DIR: path.join(dataDir, name),
    PORT: "0",
    CLUSTER: "sandbox",
    DATABASE_URL: databaseUrl,
    RPC_URL: rpc,
    RPC_WS_URL: ws,
    SANDBOX_PARTNER_KEY: KEY,
    KEY_QUOTA_LIMIT: String(QUOTA),
    KEY_QUOTA_WINDOW_SECONDS: "3600",
    WS_MAX_CONNECTIONS_PER_KEY: "2",
    LOG_FORMAT: "json"
  })
  processes.push(running)
  const [, url] = await running.waitForOutput(/listening on (http:\/\/[\d.]+:\d+)/, 90_000)
  return { running, url: url! }
}

const status = async (url: string) => (await fetch(`${url}/v2/vaults`, { headers: { "x-api-key": KEY } })).status

/** Opens `/v2/stream` with the key: the socket once it has stayed open a moment, "dropped", or the refusing HTTP status. */
const attempt = (url: string, key: string) =>
  new Promise<WebSocket | number | "dropped">((resolve) => {
    const socket = new WebSocket(url.replace(/^http/, "ws") + "/v2/stream", { headers: { "x-api-key": key } })
    socket.on("open", () => setTimeout(() => resolve(socket.readyState === WebSocket.OPEN ? socket : "dropped"), 100))
    socket.on("unexpected-response", (_request: unknown, response: { statusCode: number }) => resolve(response.statusCode))
    socket.on("error", () => undefined)
  })

/**
 * `attempt`, again (as a partner's client would) when the connection is dropped right after its
 * upgrade: uWS closes an asynchronously upgraded socket now and then (uNetworking/uWebSockets#1928).
 * A dropped connection was released, so the limit is checked on connections that stay open.
 */
const connect = async (url: string, key: string): Promise<WebSocket | number> => {
  for (let tries = 1; ; tries++) {
    const outcome = await attempt(url, key)
    if (outcome !== "dropped") return outcome
    console.log(`${url}: a WebSocket connection was dropped right after its upgrade; connecting again`)
    if (tries === 3) throw new Error("three WebSocket connections in a row were dropped right after their upgrade")
  }
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
  gateways.push(await startGateway("a", rpc!, ws!))
  gateways.push(await startGateway("b", rpc!, ws!))
}, 240_000)

afterAll(async () => {
  for (const running of processes.reverse()) {
    running.child.kill("SIGINT")
    await running.exited
  }
  await Effect.runPromise(Scope.close(scope, Exit.void))
  fs.rmSync(dataDir, { recursive: true, force: true })
}, 60_000)

describe("limits shared by two serve processes", () => {
  it("the key's quota holds across both; its WebSocket connections too, and a killed process's stop counting", async () => {
    const [a, b] = gateways as [typeof gateways[0], typeof gateways[0]]
    expect(a.running.output()).toContain("counted across instances in PostgreSQL")
    // until each has seeded or read the key: every authenticated answer (200 or 503) is charged
    let charged = 0
    for (const gateway of [a, b]) {
      for (let i = 0; i < 100; i++) {
        const answer = await status(gateway.url)
        if (answer !== 401) {
          charged++
          break
        }
        await new Promise((resolve) => setTimeout(resolve, 200))
      }
    }
    const statuses: Array<number> = []
    for (let i = 0; i < 40; i++) statuses.push(await status(i % 2 === 0 ? a.url : b.url))
    expect(statuses.filter((answer) => answer !== 429 && answer !== 200 && answer !== 503)).toEqual([])
    const accepted = charged + statuses.filter((answer) => answer !== 429).length
    // each alone would take 20; together from 20 to 20 - 1 + 2 × 1 (lease 1 % of 20, at least 1)
    expect(accepted).toBeGreaterThanOrEqual(QUOTA)
    expect(accepted).toBeLessThanOrEqual(QUOTA + 1)
    expect(statuses.at(-1)).toBe(429)
    expect(statuses.at(-2)).toBe(429)

    // WebSocket connections per key, with a key of its own (the upgrade is charged on the quota too)
    const issued = await runCli(
      ["keys", "issue", "--name", "ws", "--environment", "sandbox", "--quota-limit", "1000", "--quota-window-seconds", "3600"],
      { DATABASE_URL: databaseUrl, CLUSTER: "sandbox" }
    )
    expect(issued.code).toBe(0)
    const wsKey = /(vg_sandbox_\S+)/.exec(issued.output)![1]!
    const onA = await connect(a.url, wsKey)
    const onB = await connect(b.url, wsKey)
    expect(onA).toBeInstanceOf(WebSocket)
    expect(onB).toBeInstanceOf(WebSocket)
    expect(await connect(a.url, wsKey)).toBe(429)
    expect(await connect(b.url, wsKey)).toBe(429)

    // kill -9 of B: its connection keeps counting until its last heartbeat is 15 s old, then A admits
    b.running.child.kill("SIGKILL")
    await b.running.exited
    const killedAt = Date.now()
    let admitted: WebSocket | number = 429
    while (Date.now() - killedAt < 40_000) {
      admitted = await connect(a.url, wsKey)
      if (admitted instanceof WebSocket) break
      expect(admitted).toBe(429)
      await new Promise((resolve) => setTimeout(resolve, 500))
    }
    const took = Date.now() - killedAt
    console.log(`two serve processes: quota ${QUOTA} accepted ${accepted}; a SIGKILLed instance's WebSocket connection stopped counting after ${took} ms`)
    expect(admitted).toBeInstanceOf(WebSocket)
    expect(took).toBeGreaterThanOrEqual(5_000)
    expect(took).toBeLessThan(25_000)
    expect(await connect(a.url, wsKey)).toBe(429)
    for (const socket of [onA, admitted]) if (socket instanceof WebSocket) socket.close()
  }, 120_000)
})
