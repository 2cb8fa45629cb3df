import { SqlClient } from "@effect/sql"
import { address, createSolanaRpc } from "@solana/kit"
import { Context, Duration, Effect, Layer, Option, Stream } from "effect"
import { ChainSourceLive } from "../../layers/solana/ChainSourceLive.ts"
import { BackfillStoreLive } from "../../layers/postgres/BackfillStoreLive.ts"
import { ChainStoreLive } from "../../layers/postgres/ChainStoreLive.ts"
import { PgPool } from "../../layers/postgres/pgPool.ts"
import { HistoryBackfillLive } from "../../layers/solana/HistoryBackfillLive.ts"
import { SolanaRpcLive } from "../../layers/solana/SolanaRpcLive.ts"
import { ProjectionLive } from "../../layers/projection/ProjectionLive.ts"
import { ChainStore } from "../../services/ChainStore.ts"
import { HistoryBackfill } from "../../services/HistoryBackfill.ts"
import { Projection } from "../../services/Projection.ts"
import { eventsFromLogs } from "../../src/ntbundle/events.ts"
import { NTBUNDLE_PROGRAM_ID } from "../../src/ntbundle/programs.ts"
import { startScenarioSandbox, type ScenarioSandboxOptions } from "../../src/sandbox/scenario/index.ts"
import { TestDatabase } from "../../src/bench/support/testDatabase.ts"

/** Calls a JSON-RPC method of the sandbox over HTTP, as any client would. */
export const sandboxCall = async (rpcUrl: string, method: string, params: ReadonlyArray<unknown> = []): Promise<any> => {
  const response = await fetch(rpcUrl, {
    method: "POST",
    headers: { "content-type": "application/json" },
    body: JSON.stringify({ jsonrpc: "2.0", id: 1, method, params })
  })
  const body = (await response.json()) as { result?: unknown; error?: { message: string } }
  if (body.error !== undefined) throw new Error(`${method}: ${body.error.message}`)
  return body.result
}

export const scenarioSandbox = (options: ScenarioSandboxOptions) =>
  Effect.acquireRelease(
    Effect.promise(() => startScenarioSandbox({ port: 0, clock: "manual", ...options })),
    (sandbox) => Effect.promise(() => sandbox.close())
  )

export type ScenarioSandboxHandle = Effect.Effect.Success<ReturnType<typeof scenarioSandbox>>

/** The gateway's ingestion (RPC client, chain source, PostgreSQL store, projection, history backfill) against a sandbox. */
export const ingestLayer = (rpcUrl: string, wsUrl: string, programId: string, watchedAccounts: ReadonlyArray<string> = []) =>
  ingestionOn(rpcUrl, wsUrl, programId, TestDatabase, watchedAccounts)

/**
 * The gateway's ingestion of `sandbox`'s program, built in the current scope and returned once its
 * projection is live (the chain is stepped slot by slot meanwhile, as a gateway only catches up as
 * slots pass). `watchedAccounts`: other accounts followed with the program's (e.g. price feeds).
 */
export const liveIngestion = (sandbox: ScenarioSandboxHandle, watchedAccounts: ReadonlyArray<string> = []) =>
  Effect.gen(function*() {
    const ingest = yield* Layer.build(ingestLayer(sandbox.handle.rpcUrl, sandbox.handle.wsUrl, NTBUNDLE_PROGRAM_ID, watchedAccounts))
    const projection = Context.get(ingest, Projection)
    for (let i = 0; i < 200 && (yield* projection.status).status !== "live"; i++) {
      yield* stepSlots(sandbox, 1)
      yield* Effect.sleep(Duration.millis(20))
    }
    return { ingest, projection }
  })

/** The same on a given database layer (SqlClient and its pool on a migrated database). */
export const ingestionOn = <E>(
  rpcUrl: string,
  wsUrl: string,
  programId: string,
  database: Layer.Layer<SqlClient.SqlClient | PgPool, E>,
  watchedAccounts: ReadonlyArray<string> = []
) =>
  HistoryBackfillLive({ since: null }).pipe(
    Layer.provideMerge(ProjectionLive({ checkpointEvery: Duration.millis(300), flushEvery: Duration.millis(50) })),
    Layer.provideMerge(BackfillStoreLive),
    Layer.provideMerge(ChainSourceLive({ rpcUrl, wsUrl, programId, watchedAccounts, reconcileInterval: Duration.millis(500), stallTimeout: Duration.seconds(2), stallSlots: 5, maxBackoff: Duration.millis(500) })),
    Layer.provideMerge(SolanaRpcLive()),
    Layer.provideMerge(ChainStoreLive),
    Layer.provideMerge(database)
  )

/** Advances the manual clock slot by slot, letting notifications flow between slots as in real time. */
export const stepSlots = (sandbox: ScenarioSandboxHandle, slots: number, pauseMs = 5) =>
  Effect.gen(function*() {
    for (let i = 0; i < slots; i++) {
      sandbox.handle.step(1)
      yield* Effect.sleep(Duration.millis(pauseMs))
    }
  })

/** The program's accounts as the sandbox holds them now (its ground truth). */
export const truthNow = async (sandbox: ScenarioSandboxHandle) => {
  const snapshot = (await sandboxCall(sandbox.handle.rpcUrl, "sandbox_snapshot")) as {
    slot: number
    accounts: Array<{ address: string; data: [string, string] }>
  }
  return { slot: snapshot.slot, accounts: new Map(snapshot.accounts.map((a) => [a.address, a.data[0]])) }
}

/** Differences between the projection's raw accounts and the truth (empty when equal). */
export const accountDifferences = (truth: ReadonlyMap<string, string>, projected: ReadonlyMap<string, { data: Uint8Array }>) => {
  const differences: Array<string> = []
  for (const [address, data] of truth) {
    const mine = projected.get(address)
    if (mine === undefined) differences.push(`missing ${address}`)
    else if (Buffer.from(mine.data).toString("base64") !== data) differences.push(`different ${address}`)
  }
  for (const address of projected.keys()) if (!truth.has(address)) differences.push(`extra ${address}`)
  return differences
}

/** Every (signature, event index) the chain's program transactions emitted, from their logs. */
export const expectedEvents = async (sandbox: ScenarioSandboxHandle, programId: string) => {
  const rpc = createSolanaRpc(sandbox.handle.rpcUrl)
  const keys = new Set<string>()
  let before: Parameters<typeof rpc.getSignaturesForAddress>[1] extends infer C ? C : never = { limit: 1000 }
  for (;;) {
    const page = await rpc.getSignaturesForAddress(address(programId), before).send()
    for (const entry of page) {
      const tx = sandbox.handle.ledger.transactions.get(entry.signature)
      if (tx === undefined || tx.err !== null) continue
      for (const { index } of eventsFromLogs(tx.logs, programId)) keys.add(`${entry.signature}:${index}`)
    }
    if (page.length < 1000) return keys
    before = { limit: 1000, before: page[page.length - 1]!.signature }
  }
}

/** Polls until the event log holds exactly `expected` and the history backfill is done; returns what it holds. */
export const eventsSettled = (expected: ReadonlySet<string>, timeoutMs = 20_000) =>
  Effect.gen(function*() {
    const backfill = yield* HistoryBackfill
    const deadline = Date.now() + timeoutMs
    for (;;) {
      const stored = yield* storedEvents
      const done = (yield* backfill.progress).state === "done"
      if ((done && stored.length === expected.size && stored.every((key) => expected.has(key))) || Date.now() > deadline) return stored
      yield* Effect.sleep(Duration.millis(100))
    }
  })

/** The checkpointed accounts once the checkpoint has reached `minSlot`. */
export const checkpointAt = (minSlot: number, timeoutMs = 20_000) =>
  Effect.gen(function*() {
    const store = yield* ChainStore
    const deadline = Date.now() + timeoutMs
    for (;;) {
      const checkpoint = yield* store.loadCheckpoint
      if (Option.isSome(checkpoint) && checkpoint.value.slot >= minSlot) {
        const accounts = yield* Stream.runCollect(store.checkpointedAccounts)
        return new Map([...accounts].map((account) => [account.address, { data: account.data }]))
      }
      if (Date.now() > deadline) return yield* Effect.die(new Error(`no checkpoint at slot ${minSlot} or later`))
      yield* Effect.sleep(Duration.millis(100))
    }
  })

export const storedEvents = Effect.gen(function*() {
  const sql = yield* SqlClient.SqlClient
  const rows = yield* sql<{ signature: string; eventIndex: number }>`SELECT signature, event_index AS "eventIndex" FROM program_event`
  return rows.map((r) => `${r.signature}:${r.eventIndex}`)
})

/**
 * Polls until the projection equals the truth and is live at the chain's tip. Meanwhile the manual
 * clock keeps producing (empty) slots, as a real chain does: a projection only learns that a slot
 * is complete from the next slot's notification.
 */
export const settledAgainstTruth = (sandbox: ScenarioSandboxHandle, timeoutMs = 20_000) =>
  Effect.gen(function*() {
    const projection = yield* Projection
    const deadline = Date.now() + timeoutMs
    let last: { differences: Array<string>; status: string } = { differences: ["not compared yet"], status: "unknown" }
    while (Date.now() < deadline) {
      const truth = yield* Effect.promise(() => truthNow(sandbox))
      const status = yield* projection.status
      const projected = yield* projection.read((state) => new Map(state.accounts)).pipe(Effect.orElseSucceed(() => null))
      if (projected !== null && status.asOf !== null && status.asOf.slot >= truth.slot - 1) {
        const differences = accountDifferences(truth.accounts, projected)
        if (differences.length === 0) return { truth, status }
        last = { differences, status: status.status }
      } else {
        last = { differences: ["not live or behind"], status: `${status.status} asOf ${status.asOf?.slot} truth ${truth.slot}` }
      }
      if (sandbox.handle.clockMode === "manual") sandbox.handle.step(1)
      yield* Effect.sleep(Duration.millis(100))
    }
    return yield* Effect.die(new Error(`projection never matched the truth: ${last.status}; ${last.differences.slice(0, 5).join(", ")} (${last.differences.length} differences)`))
  })
