/**
 * Checkpoint write and restart at mainnet scale: 1,000,000 UserBundleAccounts (440 bytes, a third
 * of them bound to builders) written through `saveCheckpoint` in one call; then a fresh process, as
 * a restart would be (so its RSS is not the writer's heap), restores them through the real
 * projection until it is live (decode, index, vault hints), and separately streams them raw.
 * Runs on an embedded PostgreSQL in a temp dir, or on a scratch database of DATABASE_URL's server.
 *
 *   npx tsx src/bench/checkpointRestore.ts            (BENCH_ACCOUNTS=100000 for a quicker run)
 */
import { spawn } from "node:child_process"
import { randomFillSync } from "node:crypto"
import fs from "node:fs"
import { fileURLToPath, pathToFileURL } from "node:url"
import { SqlClient } from "@effect/sql"
import { PgClient } from "@effect/sql-pg"
import { isAddress } from "@solana/kit"
import { Effect, Layer, Logger, LogLevel, Redacted, Stream } from "effect"
import { ChainStoreLive } from "../../layers/postgres/ChainStoreLive.ts"
import { pooledPgClient } from "../../layers/postgres/pgPool.ts"
import { ChainStore, type StoredAccount } from "../../services/ChainStore.ts"
import { Projection } from "../../services/Projection.ts"
import { ProjectionLive } from "../../layers/projection/ProjectionLive.ts"
import { encodeAccount } from "../ntbundle/accounts.ts"
import { blankUserBundleAccount, ZERO_ADDRESS } from "../ntbundle/blankAccounts.ts"
import { NTBUNDLE_PROGRAM_ID } from "../ntbundle/programs.ts"
import { scriptedChainSource } from "./support/scriptedChainSource.ts"
import { TestDatabase } from "./support/testDatabase.ts"

const USER_BUNDLE_ACCOUNT_BYTES = 440
const VAULTS = 64
const MB = 1024 * 1024
const RESTORE_FLAG = "--restore-from-env"
const RESTORE_URL_VARIABLE = "BENCH_RESTORE_DATABASE_URL"

const BASE58 = "123456789ABCDEFGHJKLMNPQRSTUVWXYZabcdefghijkmnopqrstuvwxyz"

/**
 * A random valid address, far faster than base58-encoding random keys (which would take most of
 * the run at this scale): 44 base58 digits led by 2..6 encode a value in [58^43, 6 * 58^43), below
 * 2^256 and needing all 32 bytes, like most real addresses.
 */
const randomAddress = (): string => {
  let address = "23456"[Math.floor(Math.random() * 5)]!
  for (let i = 0; i < 43; i++) address += BASE58[Math.floor(Math.random() * 58)]
  return address
}

const GENESIS = "bench-genesis"
const TEMPLATE = encodeAccount({ type: "UserBundleAccount", data: blankUserBundleAccount(ZERO_ADDRESS) })
const OWNER_OFFSET = 8
const SHARES_OFFSET = 48
const REFERRER_OFFSET = 263

/**
 * Valid UserBundleAccounts over one backing buffer (random owners and share balances, every third
 * bound to one of 50 builders), patched into an encoded template: encoding a million with the
 * codecs would take most of the run.
 */
const syntheticAccounts = (count: number): Array<StoredAccount> => {
  const bytes = Buffer.allocUnsafe(count * USER_BUNDLE_ACCOUNT_BYTES)
  const builders = Array.from({ length: 50 }, () => randomFillSync(Buffer.alloc(32)))
  for (let i = 0; i < count; i++) {
    const at = i * USER_BUNDLE_ACCOUNT_BYTES
    bytes.set(TEMPLATE, at)
    randomFillSync(bytes, at + OWNER_OFFSET, 32)
    randomFillSync(bytes, at + SHARES_OFFSET, 6)
    if (i % 3 === 0) bytes.set(builders[i % builders.length]!, at + REFERRER_OFFSET)
  }
  const vaults = Array.from({ length: VAULTS }, randomAddress)
  return Array.from({ length: count }, (_, i) => ({
    address: randomAddress(),
    owner: NTBUNDLE_PROGRAM_ID,
    slot: 300_000_000 + (i % 100_000),
    data: bytes.subarray(i * USER_BUNDLE_ACCOUNT_BYTES, (i + 1) * USER_BUNDLE_ACCOUNT_BYTES),
    vault: vaults[i % VAULTS] ?? null
  }))
}

const round = (value: number, digits = 2): number => Number(value.toFixed(digits))
const rssMb = (): number => process.memoryUsage().rss / MB

/** Wall and CPU seconds of `effect`; CPU time drifts less than wall time on a shared machine. */
const timed = <A, E, R>(effect: Effect.Effect<A, E, R>) =>
  Effect.gen(function*() {
    const start = performance.now()
    const cpuStart = process.cpuUsage()
    const result = yield* effect
    const cpu = process.cpuUsage(cpuStart)
    return { result, seconds: (performance.now() - start) / 1000, cpuSeconds: (cpu.user + cpu.system) / 1e6 }
  })

/** Runs `effect` while sampling RSS; returns its result and the peak RSS in MB. */
const withPeakRss = <A, E, R>(effect: Effect.Effect<A, E, R>) =>
  Effect.gen(function*() {
    let peak = rssMb()
    const timer = setInterval(() => (peak = Math.max(peak, rssMb())), 20)
    const result = yield* Effect.ensuring(effect, Effect.sync(() => clearInterval(timer)))
    return [result, Math.max(peak, rssMb())] as const
  })

// ---- restore: a fresh process streams every account back ----

/**
 * CPU seconds the server process `pid` has used so far, when it runs on this machine (an embedded
 * server); undefined otherwise. Linux counts them in ticks of 1/100 s.
 */
const serverCpuSeconds = (pid: number): number | undefined => {
  try {
    const fields = fs.readFileSync(`/proc/${pid}/stat`, "utf8").split(") ")[1]?.split(" ") ?? []
    return (Number(fields[11]) + Number(fields[12])) / 100
  } catch {
    return undefined
  }
}

/** A restart: the projection restores the checkpoint and goes live (the chain has nothing new). */
const restartToLive = Effect.gen(function*() {
  const chain = yield* scriptedChainSource(NTBUNDLE_PROGRAM_ID, GENESIS)
  yield* chain.send({ _tag: "TransactionsComplete", signature: "bench", slot: 300_100_000 }, { _tag: "SlotAdvanced", slot: 300_100_001, completedBlockTime: 1_760_000_000 })
  const baselineRss = rssMb()
  const [{ result: accounts, seconds, cpuSeconds }, peakRss] = yield* withPeakRss(timed(
    Effect.scoped(
      Effect.gen(function*() {
        const context = yield* Layer.build(ProjectionLive().pipe(Layer.provide(chain.layer)))
        const projection = context.unsafeMap.get(Projection.key) as Projection["Type"]
        while (projection.currentStatus().status !== "live") yield* Effect.sleep(5)
        return yield* projection.read((state) => state.users.size)
      })
    )
  ))
  return {
    restartPositions: accounts,
    restartToLiveSeconds: round(seconds),
    restartCpuSeconds: round(cpuSeconds),
    restartRssBaselineMb: Math.round(baselineRss),
    restartRssPeakMb: Math.round(peakRss)
  }
})

const restore = Effect.gen(function*() {
  const store = yield* ChainStore
  // The pool has one connection (see runRestoreFromEnv), so the stream runs on this backend.
  const sql = yield* SqlClient.SqlClient
  const backend = (yield* sql<{ pid: number }>`SELECT pg_backend_pid() AS pid`)[0]?.pid ?? -1
  const serverCpuBefore = serverCpuSeconds(backend)
  const baselineRss = rssMb()
  const [{ result: [rows, bytes], seconds, cpuSeconds }, peakRss] = yield* withPeakRss(timed(
    // Touches every account, keeps none: the caller's decode and state are not measured here.
    Stream.runFold(store.checkpointedAccounts, [0, 0] as [number, number], (totals, account) => {
      totals[0] += 1
      totals[1] += account.data.length
      return totals
    })
  ))
  const serverCpuAfter = serverCpuSeconds(backend)
  return {
    restoredAccounts: rows,
    restoredBytes: bytes,
    restoreStreamSeconds: round(seconds),
    restoreRowsPerSecond: Math.round(rows / seconds),
    restoreCpuSeconds: round(cpuSeconds),
    ...(serverCpuBefore !== undefined && serverCpuAfter !== undefined
      ? { restoreServerCpuSeconds: round(serverCpuAfter - serverCpuBefore) }
      : {}),
    restoreRssBaselineMb: Math.round(baselineRss),
    restoreRssPeakMb: Math.round(peakRss)
  }
})

const runRestoreFromEnv = () => {
  const url = process.env[RESTORE_URL_VARIABLE]
  if (url === undefined) throw new Error(`${RESTORE_URL_VARIABLE} is not set`)
  const store = ChainStoreLive.pipe(Layer.provideMerge(pooledPgClient({ url: Redacted.make(url), maxConnections: 2 })))
  return Effect.runPromise(
    Effect.all([restartToLive, restore]).pipe(
      Effect.map(([restart, stream]) => ({ ...restart, ...stream })),
      Effect.provide(store),
      Logger.withMinimumLogLevel(LogLevel.Warning)
    )
  )
}

const connectionUrl = (config: PgClient.PgClientConfig): string => {
  if (config.url !== undefined) return Redacted.value(config.url)
  const url = new URL("postgres://localhost")
  url.hostname = config.host ?? "localhost"
  url.port = String(config.port ?? 5432)
  url.username = config.username ?? "postgres"
  url.password = config.password === undefined ? "" : Redacted.value(config.password)
  url.pathname = `/${config.database ?? "postgres"}`
  return url.toString()
}

const restoreInChildProcess = (databaseUrl: string) =>
  Effect.async<Record<string, number>, Error>((resume) => {
    const child = spawn(process.execPath, ["--import", "tsx", fileURLToPath(import.meta.url), RESTORE_FLAG], {
      env: { ...process.env, [RESTORE_URL_VARIABLE]: databaseUrl },
      stdio: ["ignore", "pipe", "inherit"]
    })
    let output = ""
    child.stdout.on("data", (chunk: Buffer) => (output += chunk.toString("utf8")))
    child.once("error", (error) => resume(Effect.fail(error)))
    child.once("close", (code) =>
      resume(
        code === 0
          ? Effect.try({ try: () => JSON.parse(output) as Record<string, number>, catch: (cause) => new Error(String(cause)) })
          : Effect.fail(new Error(`the restore process exited with ${code}`))
      )
    )
    return Effect.sync(() => child.kill("SIGKILL"))
  })

// ---- write, then restore ----

const measure = (count: number) =>
  Effect.gen(function*() {
    const store = yield* ChainStore
    const accounts = syntheticAccounts(count)
    if (!accounts.slice(0, 1_000).every((stored) => isAddress(stored.address))) {
      return yield* Effect.dieMessage("the synthetic addresses are not valid addresses")
    }
    const checkpoint = {
      genesisHash: GENESIS,
      programId: NTBUNDLE_PROGRAM_ID,
      slot: 300_100_000,
      blockTime: 1_760_000_000,
      lastSignature: null
    }
    const write = yield* timed(store.saveCheckpoint(checkpoint, accounts, []))

    const client = yield* PgClient.PgClient
    const restored = yield* restoreInChildProcess(connectionUrl(client.config))
    if (restored.restoredAccounts !== count || restored.restoredBytes !== count * USER_BUNDLE_ACCOUNT_BYTES) {
      return yield* Effect.dieMessage(`restored ${JSON.stringify(restored)}, expected ${count} accounts`)
    }
    if (restored.restartPositions !== count) {
      return yield* Effect.dieMessage(`the projection restored ${restored.restartPositions} positions, expected ${count}`)
    }
    const { restoredAccounts: _, restoredBytes: __, restartPositions: ___, ...restoreFigures } = restored
    return {
      accounts: count,
      writeSeconds: round(write.seconds),
      writeRowsPerSecond: Math.round(count / write.seconds),
      writeCpuSeconds: round(write.cpuSeconds),
      ...restoreFigures
    }
  })

export const run = (accounts: number = Number(process.env.BENCH_ACCOUNTS ?? 1_000_000)): Promise<Record<string, number>> =>
  Effect.runPromise(
    measure(accounts).pipe(
      Effect.provide(ChainStoreLive.pipe(Layer.provideMerge(TestDatabase))),
      Logger.withMinimumLogLevel(LogLevel.Warning)
    )
  )

if (process.argv[1] !== undefined && import.meta.url === pathToFileURL(process.argv[1]).href) {
  const restoreOnly = process.argv.includes(RESTORE_FLAG)
  ;(restoreOnly ? runRestoreFromEnv() : run()).then(
    (figures) => console.log(JSON.stringify(figures, null, restoreOnly ? undefined : 2)),
    (error: unknown) => {
      console.error(error)
      process.exitCode = 1
    }
  )
}
