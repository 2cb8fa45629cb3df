import { HttpApi } from "@effect/platform"
import { SqlClient } from "@effect/sql"
import { describe, expect, it } from "@effect/vitest"
import { address, type Address, createSolanaRpc } from "@solana/kit"
import { Context, Duration, Effect, Either, Layer } from "effect"
import { PricesLive } from "../../layers/memory/PricesLive.ts"
import { DailyRollupLive } from "../../layers/postgres/DailyRollupLive.ts"
import { ReferrerHistoryLive } from "../../layers/postgres/ReferrerHistoryLive.ts"
import { VaultHistoryLive } from "../../layers/postgres/VaultHistoryLive.ts"
import { VaultSeriesLive } from "../../layers/postgres/VaultSeriesLive.ts"
import { ApiRoutesLive } from "../../layers/uws/ApiRoutes.ts"
import { HttpListener } from "../../layers/uws/HttpServer.ts"
import { ReferrerHistory } from "../../services/ReferrerHistory.ts"
import { BadRequestResponse, InternalErrorResponse } from "../../src/api/errors.ts"
import { HistoryApi } from "../../src/api/history/HistoryApi.ts"
import { HistoryHandlersLive } from "../../src/api/history/HistoryHandlers.ts"
import { VaultSeriesApi } from "../../src/api/history/VaultSeriesApi.ts"
import { VaultSeriesHandlersLive } from "../../src/api/history/VaultSeriesHandlers.ts"
import { listenForTest } from "../../src/bench/support/httpTestServer.ts"
import { PartnerKeyStandIn, TEST_PARTNER_KEY } from "../../src/bench/support/partnerKeyStandIn.ts"
import { utcDayEnd, utcDayOf } from "../../src/domain/history/utcDay.ts"
import { decodeBundle, decodeOracleData, encodeBundle } from "../../src/ntbundle/accounts.ts"
import { eventsFromLogs } from "../../src/ntbundle/events.ts"
import { sharePrice, vaultValuation } from "../../src/ntbundle/math.ts"
import { findOraclePda } from "../../src/ntbundle/pdas.ts"
import { NTBUNDLE_PROGRAM_ID } from "../../src/ntbundle/programs.ts"
import { fetchJson } from "../support/httpFetch.ts"
import { liveIngestion, sandboxCall, scenarioSandbox, settledAgainstTruth, stepSlots, truthNow, type ScenarioSandboxHandle } from "../support/ingestHarness.ts"

// The vault history and series routes alone, under the gateway's API id so that its handlers serve them.
const SeriesApi = HttpApi.make("vault-gateway").add(HistoryApi).add(VaultSeriesApi).addError(BadRequestResponse).addError(InternalErrorResponse)
const keyed = { headers: { "x-api-key": TEST_PARTNER_KEY } }
const PRICED = new Set(["Allocated", "Redeemed", "ChargedFeesToUser"])

const scenario = {
  seed: 31,
  users: 12,
  builders: 1,
  activity: 0,
  initialPositions: 0.9,
  vaultIds: [76, 60],
  historyDays: 2,
  historyStepSeconds: 4 * 3_600,
  keeperIntervalSlots: 8
} as const

interface TruthEvent {
  readonly slot: number
  readonly signature: string
  readonly index: number
  readonly blockTime: number
  readonly name: string
  readonly sharePrice: bigint
}

/** Every price-bearing event the chain's program transactions emitted for `vault`, in the event log's order. */
const chainPriceEvents = async (sandbox: ScenarioSandboxHandle, vault: string): Promise<Array<TruthEvent>> => {
  const rpc = createSolanaRpc(sandbox.handle.rpcUrl)
  const out: Array<TruthEvent> = []
  let before: string | undefined
  for (;;) {
    const page = await rpc.getSignaturesForAddress(address(NTBUNDLE_PROGRAM_ID), before === undefined ? { limit: 1000 } : { limit: 1000, before: before as never }).send()
    for (const entry of page) {
      const tx = sandbox.handle.ledger.transactions.get(entry.signature)
      if (tx === undefined || tx.err !== null) continue
      for (const { index, event } of eventsFromLogs(tx.logs, NTBUNDLE_PROGRAM_ID)) {
        const data = event.data as { bundleAccountKey?: string; sharePrice?: bigint }
        if (!PRICED.has(event.name) || data.bundleAccountKey !== vault || typeof data.sharePrice !== "bigint") continue
        out.push({ slot: tx.slot, signature: tx.signature, index, blockTime: tx.blockTime, name: event.name, sharePrice: data.sharePrice })
      }
    }
    if (page.length < 1000) break
    before = page[page.length - 1]!.signature
  }
  // The log keeps no order inside a slot: it reads by signature then event index (DESIGN §2).
  return out.sort((a, b) => a.slot - b.slot || (a.signature < b.signature ? -1 : a.signature > b.signature ? 1 : a.index - b.index))
}

describe("vault series against the sandbox chain", () => {
  it.live("share-price series equal the chain's events and closes; metrics rows stay after a fee change; a close seen live carries usd", () =>
    Effect.gen(function*() {
      const sandbox = yield* scenarioSandbox(scenario)
      const feeds = sandbox.scenario.prices.feeds
      const { ingest, projection } = yield* liveIngestion(sandbox, [...feeds.values()])
      const prices = PricesLive({ feeds, maxAgeSeconds: 120 }).pipe(Layer.provide(Layer.succeedContext(ingest)))
      const context = yield* Layer.build(
        Layer.mergeAll(
          DailyRollupLive({ interval: Duration.millis(100), provisionalEvery: Duration.zero, pageSize: 7 }).pipe(Layer.provide(prices)),
          VaultHistoryLive,
          VaultSeriesLive,
          ReferrerHistoryLive,
          prices
        ).pipe(Layer.provide(Layer.succeedContext(ingest)))
      )
      const history = Context.get(context, ReferrerHistory)
      const sql = Context.get(ingest, SqlClient.SqlClient)
      const chainSeconds = () => Math.floor(sandbox.scenario.chain.ledger.clock.unixMs() / 1000)

      const closedThrough = (date: string) =>
        Effect.gen(function*() {
          for (let i = 0; i < 400; i++) {
            const coverage = yield* history.coverage
            if (coverage.closedThrough !== null && coverage.closedThrough >= date) return
            yield* stepSlots(sandbox, 1)
            yield* Effect.sleep(Duration.millis(30))
          }
          return yield* Effect.die(new Error(`the rollup never closed ${date}`))
        })
      /** Moves the chain to `unixSeconds` (the keeper runs on the way) and lets the projection see it. */
      const chainTo = (unixSeconds: number) =>
        Effect.gen(function*() {
          sandbox.scenario.fastForward(unixSeconds * 1000)
          for (let i = 0; i < 200 && ((yield* projection.status).asOf?.blockTime ?? 0) < unixSeconds; i++) {
            yield* stepSlots(sandbox, 1)
            yield* Effect.sleep(Duration.millis(20))
          }
        })

      const routes = ApiRoutesLive(SeriesApi).pipe(
        Layer.provide(Layer.merge(Layer.merge(HistoryHandlersLive, VaultSeriesHandlersLive).pipe(Layer.provide(Layer.succeedContext(context))), PartnerKeyStandIn))
      )
      const server = yield* Layer.build(listenForTest(routes).pipe(Layer.provide(Layer.succeedContext(ingest))))
      const url = Context.get(server, HttpListener).url
      /** A 200 body's data, retried while the route answers 503 (a day just ended and is being stored). */
      const get = (path: string) =>
        Effect.gen(function*() {
          for (let attempt = 0; attempt < 200; attempt++) {
            const response = yield* fetchJson(`${url}${path}`, keyed)
            if (response.status !== 503) {
              expect(response.status, `${path}: ${JSON.stringify(response.body)}`).toBe(200)
              return response.body as { data: any; asOf: { slot: number } }
            }
            yield* stepSlots(sandbox, 1)
            yield* Effect.sleep(Duration.millis(30))
          }
          return yield* Effect.die(new Error(`${path} stayed 503`))
        })
      /** Every page of a listing, following nextCursor. */
      const all = (path: string, field: string) =>
        Effect.gen(function*() {
          const rows: Array<any> = []
          let cursor: string | null = null
          do {
            const separator = path.includes("?") ? "&" : "?"
            const body: { data: any } = yield* get(`${path}${separator}limit=100${cursor === null ? "" : `&cursor=${encodeURIComponent(cursor)}`}`)
            rows.push(...body.data[field])
            cursor = body.data.nextCursor
          } while (cursor !== null)
          return rows
        })

      // The backfilled days close first (the gateway was not running then).
      const backfilledThrough = utcDayOf(chainSeconds() - 86_400)
      yield* closedThrough(backfilledThrough)

      // The vault with the most price-bearing events among those whose asset has a price feed.
      const counts = yield* sql<{ vault: string; n: number }>`
        SELECT vault, count(*)::int AS n FROM program_event WHERE name IN ('Allocated', 'Redeemed', 'ChargedFeesToUser') AND vault IS NOT NULL
        GROUP BY vault ORDER BY n DESC`
      const mintOf = (vault: string) =>
        Either.getOrThrow(projection.readSync((state) => state.vaults.get(vault)?.bundle.assetAddress ?? null))
      const vault = counts.map((row) => row.vault).find((candidate) => {
        const mint = mintOf(candidate)
        return mint !== null && feeds.has(mint)
      })
      if (vault === undefined) return yield* Effect.die(new Error("no vault with events and a priced asset"))
      const mint = mintOf(vault)!

      // 1. Today closes while the gateway runs: the chain goes to 30 s before midnight, the gateway
      // samples the feed there (no slot passes, so the feed holds still), then midnight passes.
      const midnight = utcDayEnd(utcDayOf(chainSeconds()))
      const liveDay = utcDayOf(midnight - 1)
      yield* chainTo(midnight - 30)
      yield* Effect.sleep(Duration.millis(600))
      const seen = sandbox.scenario.prices.current(mint)!
      expect(seen.publishTime).toBeLessThan(midnight)
      expect(seen.publishTime).toBeGreaterThanOrEqual(midnight - 600)
      yield* chainTo(midnight + 30)
      yield* closedThrough(liveDay)

      const snapshots = yield* all(`/v2/vault/${vault}/snapshots`, "snapshots")
      for (const row of snapshots) {
        if (row.date <= backfilledThrough) {
          // Closed before the gateway ran: no price was seen, none is invented.
          expect(row.closingAssetPrice, row.date).toBeNull()
          if (row.closingTvl !== null) expect(row.closingTvl.usd, row.date).toBeNull()
        }
      }
      expect(snapshots.filter((row) => row.date <= backfilledThrough).length).toBeGreaterThan(0)
      const closedLive = snapshots.find((row) => row.date === liveDay)
      expect(closedLive.closingAssetPrice).toEqual({ usd: seen.usd, publishTime: seen.publishTime, slot: expect.any(Number) })
      expect(closedLive.closingTvl.usd).toBe(Number(closedLive.closingTvl.token) * seen.usd)

      // 2. Metrics history: backfilled days marked so, the live close at the fees of then and priced.
      const recorded = yield* all(`/v2/vault/${vault}/metrics/history`, "history")
      expect(recorded.map((row) => row.date)).toEqual(snapshots.map((row) => row.date))
      for (const row of recorded) expect(row.derivation, row.date).toBe(row.date <= backfilledThrough ? "backfill" : "atClose")
      const liveMetrics = recorded.find((row) => row.date === liveDay)
      const feesBefore = Either.getOrThrow(projection.readSync((state) => state.vaults.get(vault)!.bundle))
      expect(liveMetrics.feeSchedule).toEqual({ managementFeeBps: feesBefore.managementFeeBps, performanceFeeBps: feesBefore.performanceFee })
      expect(liveMetrics.tvl).toEqual(closedLive.closingTvl)

      // 3. The manager changes the fee on chain; the next close uses it, recorded days stay as they were.
      const truth = yield* Effect.promise(() => truthNow(sandbox))
      const bundle = Either.getOrThrow(decodeBundle(Buffer.from(truth.accounts.get(vault)!, "base64")))
      const raised = bundle.managementFeeBps + 250
      yield* Effect.promise(() => sandboxCall(sandbox.handle.rpcUrl, "sandbox_setAccount", [{
        address: vault, owner: NTBUNDLE_PROGRAM_ID, data: [Buffer.from(encodeBundle({ ...bundle, managementFeeBps: raised })).toString("base64"), "base64"]
      }]))
      for (let i = 0; i < 200 && Either.getOrThrow(projection.readSync((state) => state.vaults.get(vault)!.bundle.managementFeeBps)) !== raised; i++) {
        yield* stepSlots(sandbox, 1)
        yield* Effect.sleep(Duration.millis(20))
      }
      const nextDay = utcDayOf(midnight + 1)
      yield* chainTo(midnight + 86_400 + 30)
      yield* closedThrough(nextDay)
      const later = yield* all(`/v2/vault/${vault}/metrics/history`, "history")
      expect(later.slice(0, recorded.length)).toEqual(recorded)
      expect(later.find((row) => row.date === nextDay)?.feeSchedule?.managementFeeBps).toBe(raised)

      // 4. A few keeper runs slot by slot: the price per share the chain's accounts give after each slot.
      const oraclePda = findOraclePda(NTBUNDLE_PROGRAM_ID, vault as Address)[0]
      const priceFromAccounts = (accounts: ReadonlyMap<string, string>) => {
        const bundle = Either.getOrThrow(decodeBundle(Buffer.from(accounts.get(vault)!, "base64")))
        const oracle = Either.getOrThrow(decodeOracleData(Buffer.from(accounts.get(oraclePda)!, "base64")))
        return sharePrice(vaultValuation({ bundle, oracle }))
      }
      const afterSlot = new Map<number, bigint>()
      for (let i = 0; i < 40; i++) {
        yield* stepSlots(sandbox, 1)
        const now = yield* Effect.promise(() => truthNow(sandbox))
        afterSlot.set(now.slot, priceFromAccounts(now.accounts))
      }

      // 5. The series against the chain: settle, then compare with the events the chain emitted.
      const settled = yield* settledAgainstTruth(sandbox).pipe(Effect.provide(ingest))
      const events = yield* Effect.promise(() => chainPriceEvents(sandbox, vault))
      expect(events.length).toBeGreaterThan(3)
      const stored = yield* sql<{ n: number }>`SELECT count(*)::int AS n FROM program_event WHERE vault = ${vault} AND name IN ('Allocated', 'Redeemed', 'ChargedFeesToUser')`
      for (let i = 0; i < 100 && stored[0]!.n < events.length; i++) yield* Effect.sleep(Duration.millis(100))

      const moved = events.filter((event, i) => i === 0 || event.sharePrice !== events[i - 1]!.sharePrice)
      const byEvent = yield* all(`/v2/vault/${vault}/share-price?resolution=event`, "points")
      expect(byEvent.map((point) => [point.event.signature, point.event.eventIndex, point.sharePrice.raw, point.date])).toEqual(
        moved.map((event) => [event.signature, event.index, event.sharePrice.toString(), utcDayOf(event.blockTime)])
      )

      // A slot whose last price-bearing event was a fee charge (it moves shares between holders, not
      // the price): the series' price after it equals the one the chain's accounts give after the slot.
      const key = (e: { slot: number; signature: string; index: number }) => [e.slot, e.signature, e.index] as const
      const notAfter = (a: readonly [number, string, number], b: readonly [number, string, number]) =>
        a[0] < b[0] || (a[0] === b[0] && (a[1] < b[1] || (a[1] === b[1] && a[2] <= b[2])))
      let checkedSlots = 0
      for (const [slot, price] of afterSlot) {
        const inSlot = events.filter((event) => event.slot === slot)
        const last = inSlot[inSlot.length - 1]
        if (last === undefined || last.name !== "ChargedFeesToUser") continue
        const point = byEvent.filter((p) => notAfter([p.event.slot, p.event.signature, p.event.eventIndex], key(last))).pop()
        expect(point?.sharePrice.raw, `slot ${slot}`).toBe(price.toString())
        checkedSlots++
      }
      expect(checkedSlots).toBeGreaterThan(0)

      // Daily closes: the last event's price before each midnight (carried over quiet days), as the snapshots say.
      const byDay = yield* all(`/v2/vault/${vault}/share-price?resolution=day`, "points")
      const snapshotsNow = yield* all(`/v2/vault/${vault}/snapshots`, "snapshots")
      expect(byDay.map((point) => [point.date, point.sharePrice?.raw ?? null])).toEqual(snapshotsNow.map((row) => [row.date, row.closingSharePrice]))
      for (const point of byDay) {
        const last = events.filter((event) => event.blockTime < utcDayEnd(point.date)).pop()
        expect(point.sharePrice?.raw ?? null, point.date).toBe(last?.sharePrice.toString() ?? null)
      }

      // The current price: the chain's accounts at the settled slot, valued as the program does.
      const current = yield* get(`/v2/vault/${vault}/share-price?limit=1`)
      expect(current.data.current.raw).toBe(priceFromAccounts(settled.truth.accounts).toString())
    }).pipe(Effect.scoped), { timeout: 180_000 })
})
