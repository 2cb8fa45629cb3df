import fs from "node:fs"
import path from "node:path"
import * as Reactivity from "@effect/experimental/Reactivity"
import { PgClient } from "@effect/sql-pg"
import { describe, expect, it } from "@effect/vitest"
import { Duration, Effect, Redacted } from "effect"
import { startCli } from "../support/cli.ts"
import { accountDifferences, expectedEvents, scenarioSandbox, type ScenarioSandboxHandle, stepSlots, truthNow } from "../support/ingestHarness.ts"
import { serverUrl, tempDir } from "../../src/bench/support/testDatabase.ts"

const PROGRAM = "BUNDDh4P5XviMm1f3gCvnq2qKx6TGosAGnoUK12e7cXU"

interface StatusBody {
  readonly status: string
  readonly asOf: { readonly slot: number } | null
  readonly checkpointSlot: number | null
}

const getStatus = (url: string) =>
  Effect.promise(async () => (await (await fetch(`${url}/status`)).json()) as StatusBody)

/** Steps the chain until the gateway's status satisfies `accept` (a gateway only catches up as slots pass). */
const stepUntil = (sandbox: ScenarioSandboxHandle, url: string, accept: (s: StatusBody) => boolean, what: string) =>
  Effect.gen(function*() {
    for (let i = 0; i < 600; i++) {
      const status = yield* getStatus(url)
      if (accept(status)) return status
      yield* stepSlots(sandbox, 1, 50)
    }
    return yield* Effect.die(new Error(`timed out waiting for ${what}`))
  })

const startGateway = (env: Record<string, string>) =>
  Effect.gen(function*() {
    const gateway = startCli(["serve"], env)
    const [, url] = yield* Effect.promise(() => gateway.waitForOutput(/listening on (http:\/\/[\d.]+:\d+)/, 20_000))
    return { gateway, url: url! }
  })

describe("a gateway killed with SIGKILL mid-ingest", () => {
  it.live("restores from its checkpoint, catches up, and ends equal to the chain", () =>
    Effect.gen(function*() {
      const sandbox = yield* scenarioSandbox({ seed: 21, users: 16, builders: 2, activity: 12, keeperIntervalSlots: 10 })
      const dataDir = tempDir("vg-crash-")
      const server = serverUrl()
      const database = `vg_crash_${process.pid}`
      const admin = (statement: string) =>
        Effect.scoped(Effect.flatMap(PgClient.make({ url: Redacted.make(server!) }), (sql) => sql.unsafe(statement))).pipe(Effect.provide(Reactivity.layer))
      const env: Record<string, string> = {
        RPC_URL: sandbox.handle.rpcUrl,
        RPC_WS_URL: sandbox.handle.wsUrl,
        PORT: "0",
        DATA_DIR: dataDir,
        CHECKPOINT_SECONDS: "1",
        LOG_FORMAT: "json"
      }
      if (server !== undefined) {
        yield* admin(`CREATE DATABASE ${database}`)
        yield* Effect.addFinalizer(() => Effect.orDie(admin(`DROP DATABASE IF EXISTS ${database} WITH (FORCE)`)))
        const url = new URL(server)
        url.pathname = `/${database}`
        env.DATABASE_URL = url.toString()
      }

      const first = yield* startGateway(env)
      yield* stepUntil(sandbox, first.url, (s) => s.status === "live" && s.checkpointSlot !== null, "a first checkpoint")
      yield* stepSlots(sandbox, 15, 30)
      first.gateway.child.kill("SIGKILL")
      yield* Effect.promise(() => first.gateway.exited)
      yield* stepSlots(sandbox, 25, 10) // the chain moves on while the gateway is down

      const second = yield* startGateway(env)
      yield* Effect.addFinalizer(() =>
        Effect.promise(async () => {
          second.gateway.child.kill("SIGINT")
          await second.gateway.exited
        })
      )
      yield* stepUntil(sandbox, second.url, (s) => s.status === "live", "live after the restart")
      expect(second.gateway.output()).toMatch(/restored \d+ accounts at slot \d+/)

      sandbox.scenario.stop()
      yield* stepSlots(sandbox, 3)
      const truth = yield* Effect.promise(() => truthNow(sandbox))
      yield* stepUntil(sandbox, second.url, (s) => (s.checkpointSlot ?? 0) >= truth.slot - 1 && s.status === "live", "a checkpoint at the chain's tip")

      // What the gateway holds durably: its checkpoint and event log, read from its database.
      const connection = server !== undefined
        ? { url: Redacted.make(env.DATABASE_URL!) }
        : {
            host: "127.0.0.1",
            port: Number(second.gateway.output().match(/embedded PostgreSQL listening on 127\.0\.0\.1:(\d+)/)![1]),
            database: "postgres",
            username: "postgres",
            password: Redacted.make(fs.readFileSync(path.join(dataDir, "postgres.password"), "utf8").trim())
          }
      const expected = yield* Effect.promise(() => expectedEvents(sandbox, PROGRAM))
      const { accounts, events } = yield* Effect.scoped(
        Effect.gen(function*() {
          const sql = yield* PgClient.make(connection)
          for (let i = 0; i < 100; i++) {
            const rows = yield* sql<{ signature: string; eventIndex: number }>`SELECT signature, event_index AS "eventIndex" FROM program_event`
            if (rows.length >= expected.size || i === 99) {
              // The program's accounts (the checkpoint also holds the watched Pyth price feeds).
              const stored = yield* sql<{ address: string; data: Uint8Array }>`SELECT address, data FROM chain_account WHERE owner = ${PROGRAM}`
              return { accounts: new Map(stored.map((r) => [r.address, { data: r.data }])), events: rows.map((r) => `${r.signature}:${r.eventIndex}`) }
            }
            yield* Effect.sleep(Duration.millis(100))
          }
          return yield* Effect.die(new Error("unreachable"))
        })
      ).pipe(Effect.provide(Reactivity.layer))
      expect(accountDifferences(truth.accounts, accounts)).toEqual([])
      expect(events.length).toBe(new Set(events).size)
      expect(new Set(events)).toEqual(expected)
    }).pipe(Effect.scoped), 180_000)
})
