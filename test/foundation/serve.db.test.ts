import fs from "node:fs"
import path from "node:path"
import * as Reactivity from "@effect/experimental/Reactivity"
import { PgClient } from "@effect/sql-pg"
import { Effect, Redacted } from "effect"
import { afterAll, beforeAll, describe, expect, it } from "vitest"
import { startCli } from "../support/cli.ts"
import { serverUrl, tempDir } from "../../src/bench/support/testDatabase.ts"

/**
 * `serve` as a user runs it. With DATABASE_URL set (CI with a server) the gateway gets a scratch
 * database on that server; otherwise it starts its embedded PostgreSQL in DATA_DIR.
 */
const server = serverUrl()
const scratchDb = `vg_serve_${process.pid}`

const admin = (statement: string) =>
  Effect.runPromise(
    Effect.scoped(
      Effect.flatMap(PgClient.make({ url: Redacted.make(server!) }), (sql) => sql.unsafe(statement))
    ).pipe(Effect.provide(Reactivity.layer))
  )

const gatewayEnv = (dataDir: string): Record<string, string> => {
  // A small sandbox scenario: these tests are about start-up, the database and shutdown.
  const env: Record<string, string> = {
    DATA_DIR: dataDir,
    PORT: "0",
    LOG_LEVEL: "Debug",
    LOG_FORMAT: "json",
    SANDBOX_USERS: "20",
    SANDBOX_BUILDERS: "2",
    SANDBOX_HISTORY_DAYS: "3"
  }
  if (server !== undefined) {
    const url = new URL(server)
    url.pathname = `/${scratchDb}`
    env.DATABASE_URL = url.toString()
  }
  return env
}

const isAlive = (pid: number) => {
  try {
    process.kill(pid, 0)
    return true
  } catch {
    return false
  }
}

const postmasterPid = (dataDir: string): number | undefined => {
  const file = path.join(dataDir, "postgres", "postmaster.pid")
  return fs.existsSync(file) ? Number(fs.readFileSync(file, "utf8").split("\n")[0]) : undefined
}

const startGateway = async (dataDir: string) => {
  const started = Date.now()
  const gateway = startCli(["serve"], gatewayEnv(dataDir))
  const [, url] = await gateway.waitForOutput(/listening on (http:\/\/[\d.]+:\d+)/, 15_000)
  const health = await fetch(`${url}/health`)
  return { gateway, url: url!, health, startupMs: Date.now() - started }
}

const stopGateway = async (gateway: ReturnType<typeof startCli>) => {
  const started = Date.now()
  gateway.child.kill("SIGINT")
  const code = await gateway.exited
  return { code, stopMs: Date.now() - started }
}

describe(`serve (${server === undefined ? "embedded PostgreSQL" : "DATABASE_URL server"})`, () => {
  const dataDir = tempDir("vg-serve-")

  beforeAll(async () => {
    if (server !== undefined) await admin(`CREATE DATABASE ${scratchDb}`)
  })
  afterAll(async () => {
    if (server !== undefined) await admin(`DROP DATABASE IF EXISTS ${scratchDb} WITH (FORCE)`)
    fs.rmSync(dataDir, { recursive: true, force: true })
  })

  it("answers /health within 15 s and stops on SIGINT within 5 s leaving no postgres", async () => {
    const { gateway, health, startupMs } = await startGateway(dataDir)
    expect(health.status).toBe(200)
    const body = (await health.json()) as { status: string; version: string }
    expect(body.status).toBe("ok")
    expect(body.version).toMatch(/^\d+\.\d+\.\d+/)
    expect(startupMs).toBeLessThan(15_000)
    expect(gateway.output()).toMatch(/applied migrations: 1_chain_state/)
    const pid = postmasterPid(dataDir)
    if (server === undefined) expect(pid !== undefined && isAlive(pid)).toBe(true)

    const { code, stopMs } = await stopGateway(gateway)
    expect(code).toBe(0)
    expect(stopMs).toBeLessThan(5_000)
    if (pid !== undefined) expect(isAlive(pid)).toBe(false)
  })

  it("reuses its database on the next start and applies no migration twice", async () => {
    if (server === undefined) expect(fs.existsSync(path.join(dataDir, "postgres", "PG_VERSION"))).toBe(true)
    const { gateway, health } = await startGateway(dataDir)
    expect(health.status).toBe(200)
    expect(gateway.output()).not.toMatch(/applied migrations/)
    expect(gateway.output()).toMatch(/database schema is up to date/)
    expect((await stopGateway(gateway)).code).toBe(0)
  })

  it("starts after a crash (kill -9) that left its database running", async () => {
    const first = await startGateway(dataDir)
    const orphan = postmasterPid(dataDir)
    first.gateway.child.kill("SIGKILL")
    await first.gateway.exited

    const { gateway, health } = await startGateway(dataDir)
    expect(health.status).toBe(200)
    if (orphan !== undefined) expect(isAlive(orphan)).toBe(false)
    expect((await stopGateway(gateway)).code).toBe(0)
  })

  it("starts over a stale postmaster.pid whose process is gone", async () => {
    if (server === undefined) {
      fs.writeFileSync(path.join(dataDir, "postgres", "postmaster.pid"), "999999\n" + path.join(dataDir, "postgres") + "\n")
    }
    const { gateway, health } = await startGateway(dataDir)
    expect(health.status).toBe(200)
    expect((await stopGateway(gateway)).code).toBe(0)
  })
})
