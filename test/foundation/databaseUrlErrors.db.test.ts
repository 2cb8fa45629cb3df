import fs from "node:fs"
import path from "node:path"
import { Effect, Exit, Redacted, Scope } from "effect"
import { afterAll, beforeAll, describe, expect, it } from "vitest"
import { embeddedPostgres, freeLoopbackPort, type PostgresConnection } from "../../layers/postgres/EmbeddedPostgres.ts"
import { tempDir } from "../../src/bench/support/testDatabase.ts"
import { CLI, startProcess } from "../support/processTree.ts"

/** A DATABASE_URL that cannot be used: one line with host, port and cause; no stack, no password. */
const dir = tempDir("vg-dburl-")
const scope = Effect.runSync(Scope.make())
let server: PostgresConnection

beforeAll(async () => {
  server = await Effect.runPromise(Scope.extend(embeddedPostgres(path.join(dir, "postgres")), scope))
})
afterAll(async () => {
  await Effect.runPromise(Scope.close(scope, Exit.void))
  fs.rmSync(dir, { recursive: true, force: true })
})

const serveWith = async (databaseUrl: string) => {
  const gateway = startProcess(process.execPath, [CLI, "serve"], { DATABASE_URL: databaseUrl, PORT: "0", DATA_DIR: dir, RPC_URL: undefined })
  const code = await gateway.exited
  const errors = gateway.output().split("\n").filter((line) => line.startsWith("vault-gateway:"))
  return { code, output: gateway.output(), errors }
}

const SECRET = "s3cretPassw0rd"

describe("an unusable DATABASE_URL", () => {
  it("refused, wrong password, missing database, malformed: one line each, no stack, no password", async () => {
    const closed = await freeLoopbackPort()
    const cases = [
      [`postgres://postgres:${SECRET}@127.0.0.1:${closed}/postgres`, `127.0.0.1:${closed}`, /connection refused/],
      [`postgres://postgres:${SECRET}@127.0.0.1:${server.port}/postgres`, `127.0.0.1:${server.port}`, /authentication failed/],
      [
        `postgres://postgres:${encodeURIComponent(Redacted.value(server.password))}@127.0.0.1:${server.port}/nosuchdb`,
        `127.0.0.1:${server.port}, database nosuchdb`,
        /database does not exist/
      ]
    ] as const
    for (const [url, where, reason] of cases) {
      const { code, output, errors } = await serveWith(url)
      expect(code).toBe(1)
      expect(errors, output).toHaveLength(1)
      expect(errors[0]).toContain(where)
      expect(errors[0]).toMatch(reason)
      expect(output).not.toContain(SECRET)
      expect(output).not.toContain(Redacted.value(server.password))
      expect(output).not.toMatch(/^\s+at /m)
    }
    const malformed = await serveWith(`mysql://root:${SECRET}@db/app`)
    expect(malformed.code).toBe(2)
    expect(malformed.errors).toEqual([
      "vault-gateway: invalid configuration: DATABASE_URL: Expected postgres://user:password@host:port/database (the value is not shown: it may hold a password)"
    ])
    expect(malformed.output).not.toContain(SECRET)
  }, 120_000)
})
