import { HttpApi } from "@effect/platform"
import { SqlClient } from "@effect/sql"
import { describe, expect, it } from "@effect/vitest"
import type { Address } from "@solana/kit"
import { Context, Effect, Layer } from "effect"
import { ApiRoutesLive } from "../../layers/uws/ApiRoutes.ts"
import { HttpListener } from "../../layers/uws/HttpServer.ts"
import { NoPricesLive } from "../../layers/memory/PricesLive.ts"
import { BadRequestResponse, InternalErrorResponse } from "../../src/api/errors.ts"
import { ReferrersApi } from "../../src/api/referrers/ReferrersApi.ts"
import { ReferrersHandlersLive } from "../../src/api/referrers/ReferrersHandlers.ts"
import { ReferrerPayoutsLive } from "../../layers/postgres/ReferrerPayoutsLive.ts"
import { CohortEventLogLive } from "../../layers/postgres/CohortEventLogLive.ts"
import { type Bundle, decodeAccount, type OracleData, type ReferrerAccount, type UserBundleAccount } from "../../src/ntbundle/accounts.ts"
import { ZERO_ADDRESS } from "../../src/ntbundle/blankAccounts.ts"
import { assetsFromShares, tierScheduleProgress, vaultValuation } from "../../src/ntbundle/math.ts"
import { findOraclePda, findUserBundlePda } from "../../src/ntbundle/pdas.ts"
import { NTBUNDLE_PROGRAM_ID } from "../../src/ntbundle/programs.ts"
import { fetchJson } from "../support/httpFetch.ts"
import { listenForTest } from "../../src/bench/support/httpTestServer.ts"
import { liveIngestion, scenarioSandbox, settledAgainstTruth, stepSlots } from "../support/ingestHarness.ts"
import { PartnerKeyStandIn, TEST_PARTNER_KEY } from "../../src/bench/support/partnerKeyStandIn.ts"

// The builder reporting routes alone, under the gateway's API id so that the gateway's handlers serve them.
const ReportingApi = HttpApi.make("vault-gateway").add(ReferrersApi).addError(BadRequestResponse).addError(InternalErrorResponse)

const keyed = { headers: { "x-api-key": TEST_PARTNER_KEY } }
const scenario = { seed: 7, users: 16, builders: 3, activity: 10, keeperIntervalSlots: 8 } as const

/** The truth's accounts decoded, by kind. */
const decodeTruth = (accounts: ReadonlyMap<string, string>) => {
  const bundles = new Map<string, Bundle>()
  const oracles = new Map<string, OracleData>()
  const referrers: Array<ReferrerAccount> = []
  const positions = new Map<string, UserBundleAccount>()
  for (const [address, data] of accounts) {
    const decoded = decodeAccount(Buffer.from(data, "base64"))
    if (decoded._tag !== "Right") continue
    const account = decoded.right
    if (account.type === "Bundle") bundles.set(address, account.data)
    else if (account.type === "OracleData") oracles.set(address, account.data)
    else if (account.type === "ReferrerAccount") referrers.push(account.data)
    else if (account.type === "UserBundleAccount") positions.set(address, account.data)
  }
  return { bundles, oracles, referrers, positions }
}

describe("builder reporting against the sandbox chain", () => {
  it.live("summary equals the ReferrerAccounts and bound UserBundleAccounts; payouts equal the stored settlements", () =>
    Effect.gen(function*() {
      const sandbox = yield* scenarioSandbox(scenario)
      const { ingest } = yield* liveIngestion(sandbox)
      yield* stepSlots(sandbox, 60)
      sandbox.scenario.stop()
      yield* stepSlots(sandbox, 3)
      const { truth } = yield* settledAgainstTruth(sandbox).pipe(Effect.provide(ingest))

      const handlers = ReferrersHandlersLive.pipe(Layer.provide(Layer.merge(ReferrerPayoutsLive, CohortEventLogLive)))
      const routes = ApiRoutesLive(ReportingApi).pipe(Layer.provide(Layer.merge(handlers, PartnerKeyStandIn)), Layer.provide(NoPricesLive))
      const server = yield* Layer.build(listenForTest(routes).pipe(Layer.provide(Layer.succeedContext(ingest))))
      const url = Context.get(server, HttpListener).url

      const { bundles, oracles, positions, referrers } = decodeTruth(truth.accounts)
      expect(referrers.length).toBeGreaterThan(0)
      const positionVault = (address: string, owner: string): string | undefined =>
        [...bundles.keys()].find((vault) => findUserBundlePda(NTBUNDLE_PROGRAM_ID, owner as Address, vault as Address)[0] === address)

      for (const builder of new Set(referrers.map((account) => account.referrer))) {
        const response = yield* fetchJson(`${url}/v2/referrer/${builder}/summary`, keyed)
        expect(response.status).toBe(200)
        const groups = new Map<string, any>(response.body.data.vaults.map((group: { vault: string }) => [group.vault, group]))
        for (const account of referrers.filter((candidate) => candidate.referrer === builder)) {
          const group = groups.get(account.bundle)
          const bundle = bundles.get(account.bundle)!
          const oracle = oracles.get(findOraclePda(NTBUNDLE_PROGRAM_ID, account.bundle)[0])!
          const valuation = vaultValuation({ bundle, oracle })
          const cohort = [...positions].filter(([address, position]) =>
            position.referrer === builder && positionVault(address, position.owner) === account.bundle)
          const cohortShares = cohort.reduce((sum, [, position]) => sum + position.shares, 0n)
          const progress = tierScheduleProgress(bundle, account.referredNetDeposits)
          expect(group).toMatchObject({
            registered: true,
            active: account.active,
            accruedMfeeShares: { raw: account.accruedMfeeShares.toString() },
            accruedPfeeShares: { raw: account.accruedPfeeShares.toString() },
            claimable: { raw: assetsFromShares(valuation, account.accruedMfeeShares + account.accruedPfeeShares).toString() },
            pendingWithdrawal: account.pendingWithdrawShares === 0n ? null : { shares: { raw: account.pendingWithdrawShares.toString() } },
            attributedUsers: cohort.length,
            attributedTvl: { raw: assetsFromShares(valuation, cohortShares).toString() },
            referredNetDeposits: { raw: account.referredNetDeposits.toString() },
            currentTier: progress.currentTierIndex === null ? null : { index: progress.currentTierIndex },
            nextTier: progress.nextTierIndex === null ? null : { index: progress.nextTierIndex, remaining: progress.remainingNetDeposits.toString() }
          })
        }
      }
      // Bound users whose builder never registered still show up, unregistered.
      for (const [address, position] of positions) {
        if (position.referrer === ZERO_ADDRESS) continue
        const vault = positionVault(address, position.owner)
        const response = yield* fetchJson(`${url}/v2/referrer/${position.referrer}/summary`, keyed)
        expect(response.body.data.vaults.map((group: { vault: string }) => group.vault)).toContain(vault)
      }

      // /users: every builder's pages walk exactly its bound positions (the truth's), in position order, each
      // with its UserReferrerSet binding from the event log once the history backfill is done.
      const boundBy = new Map<string, Array<string>>()
      for (const [address, position] of positions) {
        if (position.referrer === ZERO_ADDRESS) continue
        boundBy.set(position.referrer, [...(boundBy.get(position.referrer) ?? []), address])
      }
      for (const [builder, bound] of boundBy) {
        const walked: Array<{ position: string; binding: string; firstAttributedAt: number | null }> = []
        let cursor: string | null = null
        for (let pages = 0; pages < 50; pages++) {
          const query: string = cursor === null ? "limit=3" : `limit=3&cursor=${encodeURIComponent(cursor)}`
          const response = yield* fetchJson(`${url}/v2/referrer/${builder}/users?${query}`, keyed)
          expect(response.status).toBe(200)
          walked.push(...response.body.data.users)
          cursor = response.body.data.nextCursor
          if (cursor === null) break
        }
        expect(walked.map((row) => row.position)).toEqual([...bound].sort())
        for (const row of walked) {
          expect(["recorded", "backfilling"]).toContain(row.binding)
          if (row.binding === "recorded") expect(row.firstAttributedAt).toBeGreaterThan(0)
        }
      }

      // This short run settles no claim (the seeded payouts test covers rows); it checks the route agrees with the log.
      const sql = Context.get(ingest, SqlClient.SqlClient)
      const settled = yield* sql<{ referrer: string; signature: string }>`
        SELECT data->>'referrer' AS referrer, signature FROM program_event WHERE name = 'ReferrerWithdrawalProcessed'
        ORDER BY slot DESC, signature DESC, event_index DESC`
      for (const builder of new Set([...referrers.map((account) => account.referrer as string), ...settled.map((row) => row.referrer)])) {
        const response = yield* fetchJson(`${url}/v2/referrer/${builder}/payouts?limit=100`, keyed)
        expect(response.status).toBe(200)
        expect(response.body.data.payouts.map((payout: { signature: string }) => payout.signature))
          .toEqual(settled.filter((row) => row.referrer === builder).map((row) => row.signature))
      }
    }).pipe(Effect.scoped), { timeout: 120_000 })
})
