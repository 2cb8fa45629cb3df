import fs from "node:fs"
import path from "node:path"
import * as Reactivity from "@effect/experimental/Reactivity"
import { PgClient } from "@effect/sql-pg"
import { Effect } from "effect"
import { afterAll, describe, expect, it } from "vitest"
import { embeddedPostgres, freeLoopbackPort } from "../../layers/postgres/EmbeddedPostgres.ts"
import { tempDir } from "../../src/bench/support/testDatabase.ts"
import {
  descendants,
  isAlive,
  killAll,
  portAnswers,
  postmasterPid,
  startProcess,
  waitForGone
} from "../support/processTree.ts"

/**
 * `npm start` as a supervisor runs it (timeout, CI runners, Docker, systemd): the signal goes to npm
 * itself, not to the process group. The server must stop gracefully and leave nothing behind.
 * Always the embedded PostgreSQL: orphaned databases are what this is about.
 */
const dirs: Array<string> = []
afterAll(() => {
  for (const dir of dirs) fs.rmSync(dir, { recursive: true, force: true })
})

const storedCheckpointSlot = (dataDir: string) =>
  Effect.runPromise(
    Effect.scoped(
      Effect.gen(function*() {
        const server = yield* embeddedPostgres(path.join(dataDir, "postgres"))
        const sql = yield* PgClient.make({ ...server })
        const rows = yield* sql<{ slot: string }>`SELECT slot FROM checkpoint WHERE id = 1`
        return rows.length === 0 ? null : Number(rows[0]!.slot)
      })
    ).pipe(Effect.provide(Reactivity.layer))
  )

const run = async (signal: "SIGINT" | "SIGTERM", when: "starting" | "live") => {
  const dataDir = tempDir("vg-signals-")
  dirs.push(dataDir)
  const port = await freeLoopbackPort()
  const npm = startProcess("npm", ["start"], {
    DATA_DIR: dataDir,
    PORT: String(port),
    DATABASE_URL: undefined,
    RPC_URL: undefined,
    LOG_LEVEL: "Info",
    // the start-up case: the default scenario, still generating its history when signalled
    SANDBOX_USERS: when === "starting" ? "200" : "20",
    SANDBOX_BUILDERS: "2",
    SANDBOX_HISTORY_DAYS: when === "starting" ? "30" : "2",
    CHECKPOINT_SECONDS: "60"
  })
  let tree: Array<number> = []
  try {
    let liveSlot: number | null = null
    if (when === "starting") {
      // the sandbox starts first, the database while it generates
      await npm.waitForOutput(/starting the sandbox chain/, 20_000)
      await npm.waitForOutput(/embedded PostgreSQL listening/, 20_000)
      await new Promise((r) => setTimeout(r, 500))
      expect(npm.output()).not.toMatch(/sandbox chain ready/)
    } else {
      await npm.waitForOutput(/listening on http/, 20_000)
      const deadline = Date.now() + 60_000
      for (;;) {
        const status = (await (await fetch(`http://127.0.0.1:${port}/status`)).json()) as {
          status: string
          asOf: { slot: number } | null
        }
        if (status.status === "live") {
          liveSlot = status.asOf!.slot
          break
        }
        if (Date.now() > deadline) throw new Error(`not live in 60 s: ${JSON.stringify(status)}`)
        await new Promise((r) => setTimeout(r, 250))
      }
    }
    tree = descendants(npm.child.pid!)
    const postgres = postmasterPid(dataDir)
    expect(postgres !== undefined && tree.includes(postgres)).toBe(true)

    const signalled = Date.now()
    npm.child.kill(signal)
    const left = await waitForGone([npm.child.pid!, ...tree], 10_000)
    const stopMs = Date.now() - signalled

    expect(left).toEqual([])
    expect(stopMs).toBeLessThan(10_000)
    await npm.exited
    expect(fs.existsSync(path.join(dataDir, "postgres", "postmaster.pid"))).toBe(false)
    expect(await portAnswers(port)).toBe(false)
    if (liveSlot !== null) {
      const [, printed] = npm.output().match(/last checkpoint written at slot (\d+)/) ?? []
      expect(Number(printed), npm.output().slice(-3000)).toBeGreaterThanOrEqual(liveSlot)
      // CHECKPOINT_SECONDS=60: only the shutdown checkpoint can be this recent
      expect(await storedCheckpointSlot(dataDir)).toBe(Number(printed))
    }
    return stopMs
  } finally {
    killAll([npm.child.pid!, ...tree].filter(isAlive))
  }
}

describe("npm start stops on a signal to npm itself", () => {
  it("SIGINT while the sandbox generates its history", async () => {
    expect(await run("SIGINT", "starting")).toBeLessThan(10_000)
  }, 60_000)

  it("SIGTERM while the sandbox generates its history", async () => {
    expect(await run("SIGTERM", "starting")).toBeLessThan(10_000)
  }, 60_000)

  it("SIGINT when live: the last checkpoint is written", async () => {
    expect(await run("SIGINT", "live")).toBeLessThan(10_000)
  }, 90_000)

  it("SIGTERM when live: the last checkpoint is written", async () => {
    expect(await run("SIGTERM", "live")).toBeLessThan(10_000)
  }, 90_000)
})
