import { HttpApi, HttpApiClient, HttpClient, HttpClientRequest, FetchHttpClient } from "@effect/platform"
import { SqlClient } from "@effect/sql"
import { describe, expect, it } from "@effect/vitest"
import type { Address } from "@solana/kit"
import { Context, Duration, Effect, Layer } from "effect"
import { DailyRollupLive } from "../../layers/postgres/DailyRollupLive.ts"
import { ReferrerHistoryLive } from "../../layers/postgres/ReferrerHistoryLive.ts"
import { ApiRoutesLive } from "../../layers/uws/ApiRoutes.ts"
import { HttpListener } from "../../layers/uws/HttpServer.ts"
import { ReferrerHistory } from "../../services/ReferrerHistory.ts"
import { BadRequestResponse, InternalErrorResponse } from "../../src/api/errors.ts"
import { ReferrerHistoryApi } from "../../src/api/referrerHistory/ReferrerHistoryApi.ts"
import { ReferrerHistoryHandlersLive } from "../../src/api/referrerHistory/ReferrerHistoryHandlers.ts"
import { utcDayEnd, utcDayOf } from "../../src/domain/history/utcDay.ts"
import { decodeAccount, type ReferrerAccount, type UserBundleAccount } from "../../src/ntbundle/accounts.ts"
import { findUserBundlePda } from "../../src/ntbundle/pdas.ts"
import { NTBUNDLE_PROGRAM_ID } from "../../src/ntbundle/programs.ts"
import { fetchJson } from "../support/httpFetch.ts"
import { listenForTest } from "../../src/bench/support/httpTestServer.ts"
import { liveIngestion, scenarioSandbox, settledAgainstTruth, stepSlots } from "../support/ingestHarness.ts"
import { PartnerKeyStandIn, TEST_PARTNER_KEY } from "../../src/bench/support/partnerKeyStandIn.ts"

// The builder history route alone, under the gateway's API id so that the gateway's handlers serve it.
const HistoryOnlyApi = HttpApi.make("vault-gateway").add(ReferrerHistoryApi).addError(BadRequestResponse).addError(InternalErrorResponse)

const keyed = { headers: { "x-api-key": TEST_PARTNER_KEY } }
// Two days of history (fast-forwarded before the gateway starts, then backfilled), three builders.
const scenario = {
  seed: 29,
  users: 12,
  builders: 3,
  activity: 0,
  initialPositions: 0.8,
  vaultIds: [76, 60, 48],
  historyDays: 2,
  historyStepSeconds: 4 * 3_600,
  keeperIntervalSlots: 8
} as const

interface WireRow {
  readonly date: string
  readonly vault: string
  readonly partial: boolean
  readonly earnings: { readonly totalShares: string }
  readonly attributedShares: string
  readonly attributedUsers: number
  readonly referredNetDeposits: { readonly raw: string }
  readonly legacyFlags: ReadonlyArray<string>
}

describe("builder history against the sandbox chain", () => {
  it.live("earnings reconcile with accrued plus claimed shares; closing counters and cohorts equal the truth; cursor walks never split or repeat a date", () =>
    Effect.gen(function*() {
      const sandbox = yield* scenarioSandbox(scenario)
      const { ingest, projection } = yield* liveIngestion(sandbox)
      const context = yield* Layer.build(
        Layer.merge(DailyRollupLive({ interval: Duration.millis(100), provisionalEvery: Duration.zero, pageSize: 7 }), ReferrerHistoryLive).pipe(Layer.provide(Layer.succeedContext(ingest)))
      )
      const history = Context.get(context, ReferrerHistory)
      const sql = Context.get(ingest, SqlClient.SqlClient)
      const chainSeconds = () => Math.floor(sandbox.scenario.chain.ledger.clock.unixMs() / 1000)

      /** Steps the chain until the rollup has closed `date`. */
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
      yield* closedThrough(utcDayOf(chainSeconds() - 86_400))

      const routes = ApiRoutesLive(HistoryOnlyApi).pipe(
        Layer.provide(Layer.merge(ReferrerHistoryHandlersLive.pipe(Layer.provide(Layer.succeedContext(context))), PartnerKeyStandIn))
      )
      const server = yield* Layer.build(listenForTest(routes).pipe(Layer.provide(Layer.succeedContext(ingest))))
      const url = Context.get(server, HttpListener).url
      const client = yield* HttpApiClient.make(HistoryOnlyApi, {
        baseUrl: url,
        transformClient: HttpClient.mapRequest(HttpClientRequest.setHeader("x-api-key", TEST_PARTNER_KEY))
      }).pipe(Effect.provide(FetchHttpClient.layer))

      /** A page, retried while the route answers 503 (a day just ended and is being stored), as a client would. */
      const page = (path: string) =>
        Effect.gen(function*() {
          for (let attempt = 0; attempt < 200; attempt++) {
            const response = yield* fetchJson(`${url}${path}`, keyed)
            if (response.status !== 503) {
              expect(response.status, JSON.stringify(response.body)).toBe(200)
              return response.body.data as { throughDate: string; history: Array<WireRow>; nextCursor: string | null }
            }
            expect(response.headers.get("retry-after")).not.toBeNull()
            yield* stepSlots(sandbox, 1)
            yield* Effect.sleep(Duration.millis(30))
          }
          return yield* Effect.die(new Error(`${path} stayed 503`))
        })
      const walk = (builder: string, query: string, betweenPages: Effect.Effect<void> = Effect.void) =>
        Effect.gen(function*() {
          const pages: Array<Array<WireRow>> = []
          let cursor: string | null = null
          do {
            const data: { history: Array<WireRow>; nextCursor: string | null } = yield* page(
              `/v2/referrer/${builder}/history?${query}${cursor === null ? "" : `&cursor=${encodeURIComponent(cursor)}`}`
            )
            pages.push(data.history)
            cursor = data.nextCursor
            yield* betweenPages
          } while (cursor !== null)
          return pages
        })

      // Builders with rows: every builder bound or registered somewhere.
      const builders = (yield* sql<{ referrer: string }>`SELECT DISTINCT referrer FROM referrer_daily ORDER BY referrer`).map((r) => r.referrer)
      expect(builders.length).toBeGreaterThanOrEqual(2)

      // 1. A cursor walk (a date a page) while the sandbox keeps running: a day passes after the first page.
      const startedThrough = (yield* page(`/v2/referrer/${builders[0]}/history?limit=1`)).throughDate
      /** A day of chain activity, seen by the projection before the walk goes on. */
      const oneMoreDay = Effect.gen(function*() {
        sandbox.scenario.fastForward((chainSeconds() + 86_400) * 1000)
        const target = chainSeconds()
        for (let i = 0; i < 200 && ((yield* projection.status).asOf?.blockTime ?? 0) < target; i++) {
          yield* stepSlots(sandbox, 1)
          yield* Effect.sleep(Duration.millis(20))
        }
      })
      let pagesWalked = 0
      const walked = yield* walk(builders[0]!, "limit=1", Effect.suspend(() => (pagesWalked++ < 1 ? oneMoreDay : Effect.void)))
      const seen = new Set<string>()
      const dateOnPage = new Map<string, number>()
      walked.forEach((rows, index) => {
        for (const row of rows) {
          const key = `${row.date}/${row.vault}`
          expect(seen.has(key), key).toBe(false)
          seen.add(key)
          const page = dateOnPage.get(row.date)
          expect(page === undefined || page === index, `${row.date} split across pages ${page} and ${index}`).toBe(true)
          dateOnPage.set(row.date, index)
        }
      })
      const walkedRows = walked.flat()
      expect(walkedRows.map((row) => row.date)).toEqual([...walkedRows.map((row) => row.date)].sort())
      const lastWalked = walkedRows[walkedRows.length - 1]!.date
      // Days closed during the walk were picked up.
      expect(lastWalked > startedThrough).toBe(true)
      // Exactly the stored rows up to the last date walked, each once.
      const fresh = (yield* walk(builders[0]!, "limit=100")).flat().filter((row) => row.date <= lastWalked)
      expect(walkedRows).toEqual(fresh)

      // 2. Stop the chain's activity, let the gateway settle, then cross one more midnight with no events.
      sandbox.scenario.stop()
      yield* stepSlots(sandbox, 3)
      const { truth } = yield* settledAgainstTruth(sandbox).pipe(Effect.provide(ingest))
      const lastEventDay = utcDayOf(chainSeconds())
      sandbox.scenario.fastForward((utcDayEnd(lastEventDay) + 120) * 1000)
      yield* closedThrough(lastEventDay)

      const referrerAccounts: Array<ReferrerAccount> = []
      const positions: Array<[string, UserBundleAccount]> = []
      const totalShares = new Map<string, bigint>()
      for (const [address, data] of truth.accounts) {
        const decoded = decodeAccount(Buffer.from(data, "base64"))
        if (decoded._tag !== "Right") continue
        if (decoded.right.type === "ReferrerAccount") referrerAccounts.push(decoded.right.data)
        if (decoded.right.type === "UserBundleAccount") positions.push([address, decoded.right.data])
        if (decoded.right.type === "Bundle") totalShares.set(address, decoded.right.data.totalShares)
      }
      // The vaults' stored closes of that day: shares outstanding as the chain holds them after its last event.
      const vaultCloses = yield* sql<{ vault: string; shares: string | null }>`
        SELECT vault, closing_total_shares::text AS shares FROM vault_daily WHERE day = ${lastEventDay}::date AND NOT partial`
      expect(vaultCloses.length).toBeGreaterThan(0)
      for (const close of vaultCloses) expect(close.shares, close.vault).toBe(totalShares.get(close.vault)?.toString())
      expect(referrerAccounts.length).toBeGreaterThan(0)
      const settled = yield* sql<{ referrer: string; vault: string; shares: string }>`
        SELECT data->>'referrer' AS referrer, vault, SUM((data->>'sharesRedeemed')::numeric)::text AS shares
        FROM program_event WHERE name = 'ReferrerWithdrawalProcessed' GROUP BY 1, 2`
      const claimed = (builder: string, vault: string) =>
        BigInt(settled.find((row) => row.referrer === builder && row.vault === vault)?.shares ?? "0")

      let earningDays = 0
      const earningBuilders = new Set<string>()
      for (const account of referrerAccounts) {
        const rows = (yield* walk(account.referrer, `vault=${account.bundle}&includePartial=true&limit=100`)).flat()
        expect(rows.length).toBeGreaterThan(0)
        earningDays += rows.filter((row) => row.earnings.totalShares !== "0").length
        // Every share the builder ever accrued was earned on some day: still accrued, being claimed, or paid out.
        const earned = rows.reduce((sum, row) => sum + BigInt(row.earnings.totalShares), 0n)
        if (earned > 0n) earningBuilders.add(account.referrer)
        expect(earned, `${account.referrer} in ${account.bundle}`).toBe(
          account.accruedMfeeShares + account.accruedPfeeShares + account.pendingWithdrawShares + claimed(account.referrer, account.bundle)
        )
        // The last completed day holds the chain's last events: its close is the truth after them.
        const close = rows.filter((row) => !row.partial && row.date === lastEventDay)
        expect(close).toHaveLength(1)
        const cohort = positions.filter(([address, position]) =>
          position.referrer === account.referrer &&
          findUserBundlePda(NTBUNDLE_PROGRAM_ID, position.owner as Address, account.bundle as Address)[0] === address
        )
        expect(close[0]).toMatchObject({
          referredNetDeposits: { raw: account.referredNetDeposits.toString() },
          attributedUsers: cohort.length,
          attributedShares: cohort.reduce((sum, [, position]) => sum + position.shares, 0n).toString()
        })
        // History days are rebuilt from the backfilled log; the day after the gateway went live is not.
        expect(rows[0]!.legacyFlags).toContain("reconstructed")
        expect(close[0]!.legacyFlags).not.toContain("reconstructed")
      }
      expect(earningDays).toBeGreaterThan(0)
      // Several builders earned over the history.
      expect(earningBuilders.size).toBeGreaterThanOrEqual(2)

      // A cursor of this listing, altered by one character, is refused.
      const first = yield* page(`/v2/referrer/${builders[0]}/history?limit=1`)
      const cursor = first.nextCursor!
      const tampered = cursor.slice(0, 5) + (cursor[5] === "A" ? "B" : "A") + cursor.slice(6)
      const refused = yield* fetchJson(`${url}/v2/referrer/${builders[0]}/history?limit=1&cursor=${encodeURIComponent(tampered)}`, keyed)
      expect(refused.status).toBe(400)
      expect(refused.body.error).toBe("INVALID_CURSOR")

      // Through the typed client: the same contract.
      const typed = yield* client.referrerHistory.history({ path: { address: builders[0]! as Address }, urlParams: { limit: 2 } })
      expect(typed.data.history.length).toBeGreaterThan(0)
      expect(typed.data.throughDate >= lastEventDay).toBe(true)
    }).pipe(Effect.scoped), { timeout: 180_000 })
})
