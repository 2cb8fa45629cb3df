import http from "node:http"
import type { AddressInfo } from "node:net"
import { SqlClient } from "@effect/sql"
import { describe, expect, layer } from "@effect/vitest"
import { Context, Deferred, Duration, Effect, Fiber, Layer, Option } from "effect"
import { BackfillStoreLive } from "../../layers/postgres/BackfillStoreLive.ts"
import { ChainStoreLive } from "../../layers/postgres/ChainStoreLive.ts"
import { backfillHistory, type BackfillTuning } from "../../layers/solana/backfillHistory.ts"
import { type JsonRpcClient, makeJsonRpcClient } from "../../layers/solana/jsonRpcClient.ts"
import { solanaRpcOn } from "../../layers/solana/SolanaRpcLive.ts"
import { signaturesBefore } from "../../layers/solana/transactions.ts"
import { BackfillStore } from "../../services/BackfillStore.ts"
import { ChainStore } from "../../services/ChainStore.ts"
import type { BackfillProgress } from "../../services/HistoryBackfill.ts"
import { programDataFromLogs } from "../../src/ntbundle/events.ts"
import { startScenarioSandbox, type ScenarioSandbox } from "../../src/sandbox/scenario/index.ts"
import { sandboxCall } from "../support/ingestHarness.ts"
import { TestDatabase } from "../../src/bench/support/testDatabase.ts"

const PROGRAM = "BUNDDh4P5XviMm1f3gCvnq2qKx6TGosAGnoUK12e7cXU"
/** Small batches and chunks, so a few hundred transactions make many of each. */
const TUNING: BackfillTuning = { since: null, batchSize: 16, concurrency: 3, chunkSize: 64 }

class HistorySandbox extends Context.Tag("test/HistorySandbox")<HistorySandbox, ScenarioSandbox>() {}

/**
 * A program instruction the program refuses (no instruction has this discriminator): landed without
 * preflight, it is a failed transaction of the program, in its history like any other.
 */
const landFailedTransaction = (sandbox: ScenarioSandbox) => {
  const payer = sandbox.scenario.people.users[0]!.keypair
  const outcome = sandbox.handle.submit({
    feePayer: payer,
    instructions: [{ programId: PROGRAM, accounts: [{ address: payer.address, isSigner: true, isWritable: true }], data: new Uint8Array(8).fill(0xee) }],
    skipPreflight: true
  })
  if (outcome.kind !== "landed" || outcome.result?.err == null) throw new Error(`expected a landed failure, got ${outcome.kind}`)
  sandbox.handle.step(1)
}

const HistorySandboxLive = Layer.scoped(
  HistorySandbox,
  Effect.acquireRelease(
    Effect.promise(async () => {
      const sandbox = await startScenarioSandbox({ port: 0, clock: "manual", seed: 31, users: 12, builders: 2, activity: 0, historyDays: 2, historyStepSeconds: 2 * 3_600 })
      landFailedTransaction(sandbox)
      return sandbox
    }),
    (sandbox) => Effect.promise(() => sandbox.close())
  )
)

const hex = (bytes: Uint8Array) => Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength).toString("hex")

/**
 * The chain's truth: every program transaction (failed or not) at or after `since`, and each data
 * line's bytes of the successful ones.
 */
const chainHistory = (sandbox: ScenarioSandbox, since: number | null = null) =>
  Effect.gen(function*() {
    const listed = yield* Effect.orDie(signaturesBefore(solanaRpcOn(makeJsonRpcClient({ url: sandbox.handle.rpcUrl })), PROGRAM, null, since))
    const transactions = new Map<string, boolean>()
    const lines = new Map<string, string>()
    for (const { signature } of listed) {
      const record = sandbox.handle.ledger.transactions.get(signature)!
      transactions.set(signature, record.err !== null)
      if (record.err !== null) continue
      for (const { index, bytes } of programDataFromLogs(record.logs, PROGRAM)) lines.set(`${signature}:${index}`, hex(bytes))
    }
    return { transactions, lines }
  })

const storedHistory = Effect.gen(function*() {
  const sql = yield* SqlClient.SqlClient
  const transactions = yield* sql<{ signature: string; failed: boolean }>`SELECT signature, failed FROM chain_transaction`
  const events = yield* sql<{ signature: string; eventIndex: number; raw: Uint8Array }>`
    SELECT signature, event_index AS "eventIndex", raw FROM program_event`
  return {
    transactions: new Map(transactions.map((row) => [row.signature, row.failed])),
    lines: new Map(events.map((row) => [`${row.signature}:${row.eventIndex}`, hex(row.raw)]))
  }
})

const emptyEventLog = Effect.flatMap(SqlClient.SqlClient, (sql) => sql`TRUNCATE program_event, chain_transaction, history_backfill`)

const runToEnd = (client: JsonRpcClient, tuning: BackfillTuning = TUNING) => {
  const reports: Array<BackfillProgress> = []
  return Effect.as(
    backfillHistory(solanaRpcOn(client), PROGRAM, tuning, (progress) => Effect.sync(() => reports.push(progress))),
    reports
  )
}

const testLayer = Layer.mergeAll(ChainStoreLive, BackfillStoreLive, HistorySandboxLive).pipe(Layer.provideMerge(TestDatabase))

// The live clock: the backfill waits out Retry-After and retries in real time.
layer(testLayer, { timeout: 120_000, excludeTestServices: true })("history backfill against the sandbox chain", (it) => {
  it.effect("stores every past transaction once, with each event's bytes exactly as logged", () =>
    Effect.gen(function*() {
      const sandbox = yield* HistorySandbox
      const truth = yield* chainHistory(sandbox)
      expect(truth.transactions.size).toBeGreaterThan(4 * 64)
      expect([...truth.transactions.values()].filter((failed) => failed)).toHaveLength(1)
      yield* emptyEventLog

      const reports = yield* runToEnd(makeJsonRpcClient({ url: sandbox.handle.rpcUrl }))
      const stored = yield* storedHistory
      expect(stored.transactions).toEqual(truth.transactions)
      expect(stored.lines).toEqual(truth.lines)
      // Each stored event is one of its transaction's `Program data:` lines, byte for byte.
      for (const [key, raw] of stored.lines) {
        const logs = sandbox.handle.ledger.transactions.get(key.split(":")[0]!)!.logs
        expect(logs).toContain(`Program data: ${Buffer.from(raw, "hex").toString("base64")}`)
      }
      expect(reports.at(-1)).toMatchObject({ state: "done", done: truth.transactions.size, total: truth.transactions.size })
      // Progress only grows, a chunk at a time.
      const done = reports.map((report) => report.done)
      expect(done).toEqual([...done].sort((a, b) => a - b))
    }))

  it.effect("resumes below the last saved chunk after being interrupted", () =>
    Effect.gen(function*() {
      const sandbox = yield* HistorySandbox
      const truth = yield* chainHistory(sandbox)
      const store = yield* BackfillStore
      yield* emptyEventLog

      const client = makeJsonRpcClient({ url: sandbox.handle.rpcUrl })
      const first = yield* Effect.fork(runToEnd(client))
      for (;;) {
        const saved = yield* store.load
        if (Option.isSome(saved) && saved.value.doneCount >= truth.transactions.size / 3) break
        yield* Effect.sleep(Duration.millis(5))
      }
      yield* Fiber.interrupt(first)
      const saved = Option.getOrThrow(yield* store.load)
      expect(saved.finished).toBe(false)
      expect(saved.doneCount).toBeLessThan(truth.transactions.size)
      // Everything from the newest transaction down to the saved position is stored.
      const partial = yield* storedHistory
      const listing = [...truth.transactions.keys()]
      const upTo = listing.indexOf(saved.oldestSignature!)
      expect(upTo + 1).toBe(saved.doneCount)
      for (const signature of listing.slice(0, upTo + 1)) expect(partial.transactions.has(signature)).toBe(true)

      const reports = yield* runToEnd(client)
      expect(reports[0]).toMatchObject({ state: "running", done: saved.doneCount })
      expect(reports.at(-1)).toMatchObject({ state: "done", done: truth.transactions.size, total: truth.transactions.size })
      const stored = yield* storedHistory
      expect(stored.transactions).toEqual(truth.transactions)
      expect(stored.lines).toEqual(truth.lines)

      // A finished backfill stays finished: a restart fetches nothing.
      const again = yield* runToEnd(client)
      expect(again).toEqual([{ state: "done", done: truth.transactions.size, total: truth.transactions.size, oldestBlockTime: saved.oldestBlockTime === null ? null : expect.any(Number) }])
    }))

  it.effect("writes two chunks at once, but saves its position in listing order: a later chunk stored first waits for the one before", () =>
    Effect.gen(function*() {
      const sandbox = yield* HistorySandbox
      const truth = yield* chainHistory(sandbox)
      const sql = yield* SqlClient.SqlClient
      const chainStore = yield* ChainStore
      yield* emptyEventLog

      // The first chunk's write is held until the second chunk is stored.
      const secondStored = yield* Deferred.make<void>()
      const storedOrder: Array<number> = []
      let calls = 0
      const heldStore: ChainStore["Type"] = {
        ...chainStore,
        appendTransactions: (transactions) =>
          Effect.suspend(() => {
            const call = ++calls
            const append = Effect.zipRight(chainStore.appendTransactions(transactions), Effect.sync(() => storedOrder.push(call)))
            if (call === 1) return Effect.zipRight(Deferred.await(secondStored), append)
            if (call === 2) return Effect.zipLeft(append, Deferred.succeed(secondStored, undefined))
            return append
          })
      }
      // At each saved position: is everything from the newest transaction down to it stored?
      const listing = [...truth.transactions.keys()]
      const prefixStored: Array<boolean> = []
      const checkPrefix = (progress: BackfillProgress) =>
        Effect.gen(function*() {
          if (progress.state !== "running" || progress.done === 0) return
          const rows = yield* sql<{ signature: string }>`SELECT signature FROM chain_transaction`
          const stored = new Set(rows.map((row) => row.signature))
          prefixStored.push(listing.slice(0, progress.done).every((signature) => stored.has(signature)))
        }).pipe(Effect.orDie)

      const client = makeJsonRpcClient({ url: sandbox.handle.rpcUrl })
      yield* backfillHistory(solanaRpcOn(client), PROGRAM, TUNING, checkPrefix).pipe(Effect.provideService(ChainStore, heldStore))
      // Chunk 2 is stored first; chunk 3 may then overtake chunk 1 (its write starts once chunk 2
      // frees a connection), so only the first place is fixed.
      expect(storedOrder[0]).toBe(2)
      expect([...storedOrder].sort((a, b) => a - b)).toEqual(Array.from({ length: calls }, (_, i) => i + 1))
      expect(prefixStored.length).toBeGreaterThan(2)
      expect(prefixStored.every(Boolean)).toBe(true)
      const stored = yield* storedHistory
      expect(stored.transactions).toEqual(truth.transactions)
      expect(stored.lines).toEqual(truth.lines)
    }))

  it.effect("rides out HTTP 429s: waits out Retry-After and stores everything", () =>
    Effect.gen(function*() {
      const sandbox = yield* HistorySandbox
      const truth = yield* chainHistory(sandbox)
      yield* emptyEventLog
      const client = makeJsonRpcClient({ url: sandbox.handle.rpcUrl })
      yield* Effect.acquireRelease(
        Effect.promise(() => sandboxCall(sandbox.handle.rpcUrl, "sandbox_fault", [{ kind: "http429", fraction: 0.25, retryAfterSeconds: 1 }])),
        () => Effect.promise(() => sandboxCall(sandbox.handle.rpcUrl, "sandbox_fault", [{ kind: "clear" }]))
      )
      const started = Date.now()
      // Fewer, larger batches: each refusal costs a second.
      yield* runToEnd(client, { ...TUNING, batchSize: 64 })
      expect(client.rateLimited()).toBeGreaterThan(0)
      // Every 429 paused all callers for its Retry-After (1 s).
      expect(Date.now() - started).toBeGreaterThanOrEqual(1_000)
      const stored = yield* storedHistory
      expect(stored.transactions).toEqual(truth.transactions)
      expect(stored.lines).toEqual(truth.lines)
    }).pipe(Effect.scoped), 90_000)

  it.effect("falls back to single calls on a node that refuses batches", () =>
    Effect.gen(function*() {
      const sandbox = yield* HistorySandbox
      // The recent past only (single calls are slow): from the block time of the 60th newest transaction.
      const newest = yield* Effect.promise(() => sandboxCall(sandbox.handle.rpcUrl, "getSignaturesForAddress", [PROGRAM, { limit: 60, commitment: "confirmed" }]))
      const since = newest.at(-1).blockTime as number
      const truth = yield* chainHistory(sandbox, since)
      expect(truth.transactions.size).toBeGreaterThanOrEqual(60)
      yield* emptyEventLog
      const proxy = yield* refusingBatches(sandbox.handle.rpcUrl)
      const client = makeJsonRpcClient({ url: proxy.url })
      yield* runToEnd(client, { ...TUNING, since })
      expect(client.batching()).toBe(false)
      // Batches already in flight when the first refusal came back are refused too; no more after.
      expect(proxy.refusedBatches()).toBeGreaterThanOrEqual(1)
      expect(proxy.refusedBatches()).toBeLessThanOrEqual(TUNING.concurrency!)
      expect(proxy.singleCalls()).toBeGreaterThanOrEqual(truth.transactions.size)
      const stored = yield* storedHistory
      expect(stored.transactions).toEqual(truth.transactions)
      expect(stored.lines).toEqual(truth.lines)
    }).pipe(Effect.scoped))
})

/**
 * An HTTP front of the sandbox's RPC that, like some providers, answers a batch with one JSON-RPC
 * error and forwards single requests.
 */
const refusingBatches = (target: string) =>
  Effect.acquireRelease(
    Effect.async<{ url: string; server: http.Server; refusedBatches: () => number; singleCalls: () => number }>((resume) => {
      let refused = 0
      let singles = 0
      const server = http.createServer((request, response) => {
        const parts: Array<Buffer> = []
        request.on("data", (part: Buffer) => parts.push(part))
        request.on("end", async () => {
          const body = Buffer.concat(parts).toString("utf8")
          if (body.trimStart().startsWith("[")) {
            refused++
            response.writeHead(200, { "content-type": "application/json" })
            response.end(`{"jsonrpc":"2.0","error":{"code":-32600,"message":"batch requests are not supported"},"id":null}`)
            return
          }
          singles++
          const answer = await fetch(target, { method: "POST", headers: { "content-type": "application/json" }, body })
          response.writeHead(answer.status, { "content-type": "application/json" })
          response.end(await answer.text())
        })
      })
      server.listen(0, "127.0.0.1", () => {
        const { port } = server.address() as AddressInfo
        resume(Effect.succeed({ url: `http://127.0.0.1:${port}`, server, refusedBatches: () => refused, singleCalls: () => singles }))
      })
    }),
    ({ server }) => Effect.async<void>((resume) => void server.close(() => resume(Effect.void)))
  )
