/**
 * A wallet's activity feed and position history read a page in O(page): the latency (p50, after 20
 * warm-up requests, one at a time) of a page for a wallet with 1 event, one with 100 (a full page) and
 * one with 10,000 (BENCH_USER_EVENTS), among other wallets' events; first pages and the oldest ones
 * (keyset cursor deep in the history; the opening holding read before the page's first day). Beside
 * each latency, the CPU a page costs: this process's (the gateway, and the client, whose share is
 * about the same for every page) and the PostgreSQL backends' of the benchmark's database, where the
 * work of a deep page would show.
 * The gateway's HTTP transport, handlers and the Postgres adapter (`UserActivityLive`) over an
 * embedded PostgreSQL (or a scratch database of DATABASE_URL's server); vault closes from memory.
 *
 *   npx tsx src/bench/userHistory.ts
 */
import { pathToFileURL } from "node:url"
import { readFileSync } from "node:fs"
import { join } from "node:path"
import { cpuSecondsWithChildren } from "./support/processCpu.ts"
import type { Address } from "@solana/kit"
import { SqlClient } from "@effect/sql"
import { Context, Effect, Layer } from "effect"
import { UserActivityLive } from "../../layers/postgres/UserActivityLive.ts"
import { HttpListener } from "../../layers/uws/HttpServer.ts"
import type { DailyRow } from "../domain/history/dailyRow.ts"
import { addUtcDays, utcDayStart } from "../domain/history/utcDay.ts"
import { wallet } from "./support/buildWorld.ts"
import { gatewayForTest } from "./support/httpTestServer.ts"
import { TEST_PARTNER_KEY } from "./support/partnerKeyStandIn.ts"
import { liveStatus } from "./support/projectionTest.ts"
import { TestDatabase } from "./support/testDatabase.ts"
import { VaultStateFixture } from "./support/vaultStateFixture.ts"

const VAULT = "J7qhMAKnB6G5dvoAN9281ufabajKbyGQxxd2bq6R7fPJ" as Address
const USDC = "EPjFWdd5AufqSSqeM2qN1xzybapC8G4wEGGkZwyTDt1v" as Address
const HEAVY = wallet("heavy")
const LIGHT = wallet("light")
/** A full page of the feed (100 events), for comparing pages of equal size. */
const MEDIUM = wallet("medium")
const heavyEvents = Number(process.env["BENCH_USER_EVENTS"] ?? 10_000)
/** Other wallets' events in the same log. */
const otherEvents = Number(process.env["BENCH_OTHER_EVENTS"] ?? 50_000)
const samples = Number(process.env["BENCH_SAMPLES"] ?? 300)
const EVENTS_PER_DAY = 4
const days = Math.ceil(heavyEvents / EVENTS_PER_DAY) + 2
const FIRST_DAY = "2020-01-01"
const lastDay = addUtcDays(FIRST_DAY, days)
const NOW = utcDayStart(addUtcDays(lastDay, 1)) + 8 * 3_600

interface Seeded {
  readonly time: number
  readonly name: string
  readonly wallet: string
  readonly data: Record<string, unknown>
}

/** One day of a wallet: a deposit requested and processed, a fee charge, a withdrawal requested or paid. */
const dayOf = (who: string, date: string, index: number, shares: bigint): { events: Array<Seeded>; shares: bigint } => {
  const t = utcDayStart(date)
  const price = String(1_000_000 + index)
  const after = shares + 1_000_000n
  const events: Array<Seeded> = [
    { time: t + 3_600, name: "DepositRequested", wallet: who, data: { user: who, grossAmount: "1001000", feeAmount: "1000", netAmount: "1000000" } },
    { time: t + 7_200, name: "Allocated", wallet: who, data: { netAmount: "1000000", sharePrice: price, userSharesBefore: String(shares), userSharesAfter: String(after) } },
    { time: t + 10_800, name: "ChargedFeesToUser", wallet: who, data: { user: who, totalFeeShares: "10", totalFeeValue: "10", sharePrice: price, userSharesAfter: String(after - 10n) } }
  ]
  if (index % 2 === 0) {
    events.push({ time: t + 14_400, name: "WithdrawalRequested", wallet: who, data: { user: who, amount: "500000", estimatedPendingWithdrawalValue: "500000", estimatedNetAmount: "499000" } })
    return { events, shares: after - 10n - 500_000n }
  }
  events.push({ time: t + 14_400, name: "Redeemed", wallet: who, data: { grossAmount: "500000", feeAmount: "1000", netAmount: "499000", sharePrice: price, userSharesBefore: String(after - 10n), userSharesAfter: String(after - 10n) } })
  return { events, shares: after - 10n }
}

const seed = Effect.gen(function*() {
  const sql = yield* SqlClient.SqlClient
  const all: Array<Seeded> = []
  let shares = 0n
  for (let i = 0; all.length < heavyEvents; i++) {
    const day = dayOf(HEAVY, addUtcDays(FIRST_DAY, i), i, shares)
    shares = day.shares
    all.push(...day.events.slice(0, heavyEvents - all.length))
  }
  all.push({ ...dayOf(LIGHT, addUtcDays(lastDay, -40), 1, 0n).events[1]!, wallet: LIGHT })
  let mediumShares = 0n
  for (let i = 0; i < 25; i++) {
    const day = dayOf(MEDIUM, addUtcDays(lastDay, -30 + i), i, mediumShares)
    mediumShares = day.shares
    all.push(...day.events)
  }
  for (let i = 0; i < otherEvents; i++) {
    const who = `other${i % 2_000}`
    all.push({ time: utcDayStart(FIRST_DAY) + Math.floor((i / otherEvents) * days * 86_400), name: "DepositRequested", wallet: who, data: { user: who, grossAmount: "5", feeAmount: "0", netAmount: "5" } })
  }
  all.sort((a, b) => a.time - b.time)
  const rows = all.map((event, i) => ({ ...event, signature: `bench-${String(i).padStart(8, "0")}`, slot: 10_000 + i }))
  for (let start = 0; start < rows.length; start += 5_000) {
    const chunk = rows.slice(start, start + 5_000)
    yield* sql`INSERT INTO chain_transaction ${sql.insert(chunk.map((row) => ({ signature: row.signature, slot: row.slot, block_time: row.time, failed: false, event_count: 1 })))}`
    yield* sql`INSERT INTO program_event ${sql.insert(chunk.map((row) => ({
      signature: row.signature, event_index: 0, slot: row.slot, block_time: row.time, name: row.name, raw: new Uint8Array(0),
      data: JSON.stringify({ bundleAccountKey: VAULT, timestamp: String(row.time), ...row.data }), vault: VAULT, wallet: row.wallet
    })))}`
  }
  yield* sql`INSERT INTO history_backfill (id, finished) VALUES (1, true) ON CONFLICT (id) DO UPDATE SET finished = true`
  yield* sql`ANALYZE program_event`
  yield* sql`ANALYZE chain_transaction`
})

const closes: Array<DailyRow> = Array.from({ length: days + 1 }, (_, i) => ({
  date: addUtcDays(FIRST_DAY, i), closingSharePrice: BigInt(1_000_000 + i), closingTotalShares: 10n ** 12n,
  depositsRequested: 0n, depositFees: 0n, withdrawalsPaid: 0n, withdrawalFees: 0n, feesCharged: 0n, events: 1
}))

const fixture = new VaultStateFixture({ slot: 10_000 + heavyEvents + otherEvents + 10, blockTime: NOW })
  .vault(VAULT, {
    bundle: { assetAddress: USDC, assetPrecision: 1_000_000n, assetDecimals: 6, totalShares: 10n ** 12n, bundleUnderlyingBalance: 10n ** 12n },
    oracle: { averageExternalEquity: 0n, lastUpdateTime: BigInt(NOW - 30) }
  })
  .position(VAULT, HEAVY, { shares: 1_000_000n, netDeposits: 1_000_000n })
  .position(VAULT, LIGHT, { shares: 1_000_000n, netDeposits: 1_000_000n })
  .position(VAULT, MEDIUM, { shares: 1_000_000n, netDeposits: 1_000_000n })

/** CPU seconds so far of this process and of the PostgreSQL server (its postmaster's pid). */
const cpuNow = (postmaster: number) => {
  const usage = process.cpuUsage()
  return { own: (usage.user + usage.system) / 1e6, database: cpuSecondsWithChildren(postmaster) }
}

interface PageFigures {
  readonly p50Ms: number
  readonly ownCpuMs: number
  readonly databaseCpuMs: number
}

const measurePage = async (url: string, path: string, postmaster: number): Promise<PageFigures> => {
  const headers = { "x-api-key": TEST_PARTNER_KEY }
  const latencies: Array<number> = []
  let before = cpuNow(postmaster)
  for (let i = 0; i < samples + 20; i++) {
    if (i === 20) before = cpuNow(postmaster)
    const started = performance.now()
    const response = await fetch(`${url}${path}`, { headers })
    await response.arrayBuffer()
    if (response.status !== 200) throw new Error(`${path}: ${response.status}`)
    if (i >= 20) latencies.push(performance.now() - started)
  }
  const after = cpuNow(postmaster)
  latencies.sort((a, b) => a - b)
  const perPage = (seconds: number) => Number(((seconds * 1000) / samples).toFixed(3))
  return {
    p50Ms: Number(latencies[Math.floor(latencies.length / 2)]!.toFixed(3)),
    ownCpuMs: perPage(after.own - before.own),
    databaseCpuMs: perPage(after.database - before.database)
  }
}

/** The PostgreSQL server's postmaster (the server runs on this machine: benchmarks use loopback only). */
const postmasterPid = Effect.gen(function*() {
  const sql = yield* SqlClient.SqlClient
  const [row] = yield* sql<{ data_directory: string }>`SHOW data_directory`
  return Number(readFileSync(join(row!.data_directory, "postmaster.pid"), "latin1").split("\n")[0])
})

const json = async (url: string, path: string): Promise<any> =>
  (await fetch(`${url}${path}`, { headers: { "x-api-key": TEST_PARTNER_KEY } })).json()

export const run = async (): Promise<Record<string, number>> =>
  Effect.runPromise(
    Effect.scoped(
      Effect.gen(function*() {
        const database = yield* Layer.build(TestDatabase)
        yield* seed.pipe(Effect.provide(Layer.succeedContext(database)))
        const server = yield* Layer.build(
          gatewayForTest({
            state: fixture.state,
            initial: liveStatus(fixture.state.asOf!.slot, { asOf: fixture.state.asOf! }),
            history: new Map([[VAULT, closes]]),
            userActivity: UserActivityLive
          }).pipe(Layer.provide(Layer.succeedContext(database)), Layer.orDie)
        )
        const url = Context.get(server, HttpListener).url
        return yield* Effect.promise(async () => {
          // the oldest page of the feed: the cursor of the page before it, from the server
          const feed = `/v2/user/${HEAVY}/activity?limit=50`
          let cursor: string | null = (await json(url, feed)).data.nextCursor
          let deepCursor = cursor
          for (let page = 0; cursor !== null && page < heavyEvents / 50; page++) {
            deepCursor = cursor
            cursor = (await json(url, `${feed}&cursor=${encodeURIComponent(cursor)}`)).data.nextCursor
          }
          const oldestWindow = `startDate=${addUtcDays(FIRST_DAY, 10)}&endDate=${addUtcDays(FIRST_DAY, 39)}`
          const heavyHistory = await json(url, `/v2/vault/${VAULT}/user/${HEAVY}/history?limit=30`)
          if (heavyHistory.data.history.length !== 30) throw new Error(`history: ${JSON.stringify(heavyHistory).slice(0, 300)}`)
          const figures: Record<string, number> = { heavyEvents, otherEvents, samples }
          const pages = {
            activityFirstPage_1event: `/v2/user/${LIGHT}/activity?limit=50`,
            activityFirstPage_100events: `/v2/user/${MEDIUM}/activity?limit=50`,
            activityFirstPage_manyEvents: feed,
            activityOldestPage_manyEvents: `${feed}&cursor=${encodeURIComponent(deepCursor!)}`,
            historyFirstPage_1event: `/v2/vault/${VAULT}/user/${LIGHT}/history?limit=30`,
            historyFirstPage_manyEvents: `/v2/vault/${VAULT}/user/${HEAVY}/history?limit=30`,
            historyOldestPage_manyEvents: `/v2/vault/${VAULT}/user/${HEAVY}/history?limit=30&${oldestWindow}`
          }
          const postmaster = await Effect.runPromise(postmasterPid.pipe(Effect.provide(Layer.succeedContext(database))))
          const measured: Partial<Record<keyof typeof pages, PageFigures>> = {}
          for (const [name, path] of Object.entries(pages) as Array<[keyof typeof pages, string]>) {
            const page = measured[name] = await measurePage(url, path, postmaster)
            figures[`${name}: p50 ms`] = page.p50Ms
            figures[`${name}: bench process CPU ms per page`] = page.ownCpuMs
            figures[`${name}: PostgreSQL CPU ms per page`] = page.databaseCpuMs
          }
          // the worse of a heavy wallet's first and oldest page against a light wallet's page, by each measure
          const comparisons = [
            { name: "activity page of 50: many events vs 100 events", target: "O(page), about 1", heavy: ["activityFirstPage_manyEvents", "activityOldestPage_manyEvents"], light: "activityFirstPage_100events" },
            { name: "history page: many events vs 1", target: "O(page); a page of 30 days holds up to 120 events here", heavy: ["historyFirstPage_manyEvents", "historyOldestPage_manyEvents"], light: "historyFirstPage_1event" }
          ] as const
          const measures = [["p50", (page: PageFigures) => page.p50Ms], ["CPU", (page: PageFigures) => page.ownCpuMs + page.databaseCpuMs]] as const
          for (const { name, target, heavy, light } of comparisons) {
            for (const [measure, of] of measures) {
              const worst = Math.max(...heavy.map((page) => of(measured[page]!)))
              figures[`${name}, by ${measure} (target: ${target})`] = Number((worst / of(measured[light]!)).toFixed(2))
            }
          }
          return figures
        })
      })
    )
  )

if (process.argv[1] !== undefined && import.meta.url === pathToFileURL(process.argv[1]).href) console.table(await run())
