/**
 * History backfill throughput, measured in parts side by side on one sandbox: listing the program's
 * signatures, fetching its transactions (batched JSON-RPC), writing them to the event log, and the
 * whole resumable backfill (`backfillHistory`) into a fresh event log. The sandbox runs in this
 * process (as `npm start` runs it), on an embedded PostgreSQL in a temp dir or a scratch database
 * of DATABASE_URL's server.
 *
 *   npx tsx src/bench/historyBackfill.ts          (BENCH_USERS=40 BENCH_DAYS=10 by default)
 */
import { SqlClient } from "@effect/sql"
import { Effect, Layer, Logger, LogLevel } from "effect"
import { BackfillStoreLive } from "../../layers/postgres/BackfillStoreLive.ts"
import { ChainStoreLive } from "../../layers/postgres/ChainStoreLive.ts"
import { backfillHistory } from "../../layers/solana/backfillHistory.ts"
import { makeJsonRpcClient } from "../../layers/solana/jsonRpcClient.ts"
import { solanaRpcOn } from "../../layers/solana/SolanaRpcLive.ts"
import { programEventsFromAnswer } from "../../layers/solana/programTransaction.ts"
import { fetchProgramTransactions, signaturesBefore } from "../../layers/solana/transactions.ts"
import type { ProgramEvents } from "../../services/ChainSource.ts"
import { ChainStore } from "../../services/ChainStore.ts"
import { startScenarioSandbox } from "../sandbox/scenario/index.ts"
import { TestDatabase } from "./support/testDatabase.ts"

const PROGRAM = "BUNDDh4P5XviMm1f3gCvnq2qKx6TGosAGnoUK12e7cXU"
const users = Number(process.env["BENCH_USERS"] ?? 40)
const days = Number(process.env["BENCH_DAYS"] ?? 10)

// CPU of the whole process (the in-process sandbox serving the RPC included): steadier than wall
// time on a shared machine.
const rate = (count: number, ms: number, cpuMs: number) =>
  `${count} in ${(ms / 1000).toFixed(2)} s = ${Math.round((count * 1000) / Math.max(ms, 1))}/s, CPU ${(cpuMs / 1000).toFixed(2)} s`

const timed = <A, E, R>(effect: Effect.Effect<A, E, R>) =>
  Effect.gen(function*() {
    const started = performance.now()
    const cpu = process.cpuUsage()
    const value = yield* effect
    const used = process.cpuUsage(cpu)
    return { value, ms: performance.now() - started, cpuMs: (used.user + used.system) / 1000 }
  })

const emptyEventLog = Effect.gen(function*() {
  const sql = yield* SqlClient.SqlClient
  yield* sql`TRUNCATE program_event, chain_transaction, history_backfill`
})

const program = Effect.gen(function*() {
  const sandbox = yield* Effect.acquireRelease(
    Effect.promise(() => startScenarioSandbox({ port: 0, clock: "manual", users, builders: 4, historyDays: days, historyStepSeconds: 4 * 3_600 })),
    (started) => Effect.promise(() => started.close())
  )
  const jsonRpc = makeJsonRpcClient({ url: sandbox.handle.rpcUrl })
  const client = solanaRpcOn(jsonRpc)
  const store = yield* ChainStore

  const listed = yield* timed(Effect.orDie(signaturesBefore(client, PROGRAM, null, null)))
  const signatures = listed.value.map((entry) => entry.signature)
  console.log(`sandbox: ${users} users, ${days} days of history, ${signatures.length} program transactions`)
  console.log(`list signatures      ${rate(signatures.length, listed.ms, listed.cpuMs)}`)

  const fetched = yield* timed(
    Effect.forEach(
      Array.from({ length: Math.ceil(signatures.length / 100) }, (_, i) => signatures.slice(i * 100, i * 100 + 100)),
      (batch) => Effect.orDie(fetchProgramTransactions(client, PROGRAM, batch)),
      { concurrency: 4 }
    )
  )
  const transactions = fetched.value.flat().filter((tx): tx is ProgramEvents => tx !== null)
  const events = transactions.reduce((sum, tx) => sum + tx.events.length, 0)
  console.log(`fetch transactions   ${rate(transactions.length, fetched.ms, fetched.cpuMs)} (${events} events)`)

  // The gateway's own part of a fetch, without the sandbox serving it: decoding answers fetched once.
  const answers = yield* Effect.promise(async () => {
    const all: Array<unknown> = []
    for (let i = 0; i < signatures.length; i += 100) {
      const batch = await jsonRpc.batch(signatures.slice(i, i + 100).map((signature) => ({
        method: "getTransaction",
        params: [signature, { encoding: "base64", maxSupportedTransactionVersion: 0, commitment: "confirmed" }]
      })))
      for (const answer of batch) all.push(answer.ok ? answer.result : null)
    }
    return all
  })
  for (let pass = 1; pass <= 3; pass++) {
    const decoded = yield* timed(Effect.sync(() => answers.map((answer, i) => programEventsFromAnswer(answer, PROGRAM, signatures[i]!))))
    console.log(`decode answers (${pass})  ${rate(decoded.value.length, decoded.ms, decoded.cpuMs)}`)
  }

  yield* emptyEventLog
  const written = yield* timed(
    Effect.forEach(
      Array.from({ length: Math.ceil(transactions.length / 1_000) }, (_, i) => transactions.slice(i * 1_000, i * 1_000 + 1_000)),
      (chunk) => store.appendTransactions(chunk),
      { discard: true }
    )
  )
  console.log(`write event log      ${rate(transactions.length, written.ms, written.cpuMs)} (${events} events)`)

  yield* emptyEventLog
  const whole = yield* timed(backfillHistory(client, PROGRAM, { since: null }, () => Effect.void))
  console.log(`whole backfill       ${rate(signatures.length, whole.ms, whole.cpuMs)}`)
})

const layer = Layer.mergeAll(ChainStoreLive, BackfillStoreLive).pipe(Layer.provideMerge(TestDatabase))

Effect.runPromise(program.pipe(Effect.scoped, Effect.provide(layer), Logger.withMinimumLogLevel(LogLevel.Warning))).catch((error) => {
  console.error(error)
  process.exitCode = 1
})
