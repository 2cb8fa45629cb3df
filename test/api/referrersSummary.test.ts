import { describe, expect, layer } from "@effect/vitest"
import type { Address } from "@solana/kit"
import { Effect } from "effect"
import { assetsFromShares, vaultValuation } from "../../src/ntbundle/math.ts"
import { fetchJson } from "../support/httpFetch.ts"
import { gatewayClient, gatewayForTest, serverUrl } from "../../src/bench/support/httpTestServer.ts"
import { TEST_PARTNER_KEY } from "../../src/bench/support/partnerKeyStandIn.ts"
import { liveStatus, ProjectionControl, startingStatus } from "../../src/bench/support/projectionTest.ts"
import { VaultStateFixture } from "../../src/bench/support/vaultStateFixture.ts"
import { putReferrer, referrerAddress, tierSchedule } from "../../src/bench/support/referrersFixture.ts"

const keyed = { headers: { "x-api-key": TEST_PARTNER_KEY } }

const USDC_VAULT = "J7qhMAKnB6G5dvoAN9281ufabajKbyGQxxd2bq6R7fPJ" as Address
const SOL_VAULT = "nE1x7KQq2sm3GQrafQUUdBkSPPT52FmiMM9qAS1dgnC" as Address
const NO_ORACLE_VAULT = "BUNDeH5A4c47bcEoAjBhN3sCjLgYnRsmt9ibMztqVkC9" as Address
const USDC = "EPjFWdd5AufqSSqeM2qN1xzybapC8G4wEGGkZwyTDt1v" as Address
const WSOL = "So11111111111111111111111111111111111111112" as Address
const BUILDER = "Es9vMFrzaCERmJfrF4H2FYD4KCoNkY11McCe8BenwNYB" as Address
const ALICE = "7vfCXTUXx5WJV5JADk17DUJ4ksgau7utNKj4b963voxs" as Address
const BOB = "3NZ9JMVBmGAqocybic2c7LQCJScmgsAZ6vQqTDzcqmJh" as Address
const CAROL = "9xQeWvG816bUx9EPjHmaT23yvVM2ZWbrrpZb9PusVFin" as Address
const NOBODY = "4k3Dyjzvzp8eMZWUXbBCjEvwSkkk59S5iCNLY3QrkX6R" as Address
const NOW = 1_800_000_000

const tiers = tierSchedule([
  { threshold: 1_000_000_000n, mfeeBps: 100, pfeeBps: 500 },
  { threshold: 5_000_000_000n, mfeeBps: 200, pfeeBps: 1_000 }
])
const usdcBundle = {
  assetAddress: USDC, assetDecimals: 6, assetPrecision: 1_000_000n,
  bundleUnderlyingBalance: 1_500_000_000n, totalShares: 1_000_000_000n, referrerEnabled: true, ...tiers
}
const usdcOracle = { averageExternalEquity: 500_000_000n, lastUpdateTime: BigInt(NOW - 30) }
const builderInUsdc = {
  accruedMfeeShares: 10_000_000n, accruedPfeeShares: 5_000_000n, referredNetDeposits: 1_200_000_000n,
  pendingWithdrawShares: 2_000_000n, estimatedPendingWithdrawalValue: 4_000_000n, withdrawalAvailableTimestamp: BigInt(NOW + 3_600)
}

const fixture = new VaultStateFixture({ slot: 2_000, blockTime: NOW })
  .vault(USDC_VAULT, { bundle: usdcBundle, oracle: usdcOracle })
  .vault(SOL_VAULT, { bundle: { assetAddress: WSOL, assetDecimals: 9, bundleUnderlyingBalance: 3_000_000_000n, totalShares: 3_000_000_000n } })
  .vault(NO_ORACLE_VAULT, { bundle: { assetAddress: USDC, ...tiers }, oracle: null })
  .position(USDC_VAULT, ALICE, { shares: 400_000_000n, referrer: BUILDER })
  .position(USDC_VAULT, BOB, { shares: 600_000_000n, referrer: BUILDER })
  .position(USDC_VAULT, NOBODY, { shares: 7n })
  .position(SOL_VAULT, CAROL, { shares: 1_000_000_000n, referrer: BUILDER })
const state = fixture.state
const usdcAccount = putReferrer(state, USDC_VAULT, BUILDER, builderInUsdc)
putReferrer(state, NO_ORACLE_VAULT, BUILDER, { referredNetDeposits: -5_000_000n, active: false })

describe("GET /v2/referrer/{address}/summary", () => {
  layer(gatewayForTest({ state, initial: liveStatus(2_000) }), { excludeTestServices: true })((it) => {
    it.effect("one group per vault, equal to the ReferrerAccount and the cohort's positions", () =>
      Effect.gen(function*() {
        const client = yield* gatewayClient
        const body = yield* client.referrers.summary({ path: { address: BUILDER } })
        expect(body.asOf).toEqual({ slot: 2_000, blockTime: NOW })
        expect(body.data.referrer).toBe(BUILDER)
        expect(body.data.vaults.map((group) => group.vault)).toEqual([NO_ORACLE_VAULT, USDC_VAULT, SOL_VAULT].sort())
        const usdc = body.data.vaults.find((group) => group.vault === USDC_VAULT)!
        const valuation = vaultValuation({ bundle: usdcBundle, oracle: usdcOracle })
        const accrued = usdcAccount.accruedMfeeShares + usdcAccount.accruedPfeeShares
        expect(assetsFromShares(valuation, accrued)).toBe(30_000_000n)
        expect(usdc).toEqual({
          vault: USDC_VAULT,
          asset: { mint: USDC, symbol: "USDC", decimals: 6 },
          registered: true,
          referrerAccount: referrerAddress(USDC_VAULT, BUILDER),
          active: true,
          accruedMfeeShares: { raw: "10000000", token: "10" },
          accruedPfeeShares: { raw: "5000000", token: "5" },
          accruedTotalShares: { raw: "15000000", token: "15" },
          claimable: { raw: "30000000", token: "30", usd: null },
          pendingWithdrawal: {
            shares: { raw: "2000000", token: "2" },
            estimatedValue: { raw: "4000000", token: "4", usd: null },
            estimatedAvailableAt: NOW + 3_600
          },
          attributedUsers: 2,
          attributedTvl: { raw: assetsFromShares(valuation, 1_000_000_000n).toString(), token: "2000", usd: null },
          referredNetDeposits: { raw: "1200000000", token: "1200" },
          currentTier: { index: 0, threshold: "1000000000", mfeeBps: 100, pfeeBps: 500 },
          nextTier: { index: 1, threshold: "5000000000", remaining: "3800000000" }
        })
        const sol = body.data.vaults.find((group) => group.vault === SOL_VAULT)!
        expect(sol).toMatchObject({
          registered: false, referrerAccount: null, active: false, attributedUsers: 1,
          accruedTotalShares: { raw: "0", token: "0" }, pendingWithdrawal: null, referredNetDeposits: { raw: "0", token: "0" },
          currentTier: null, nextTier: null
        })
        // Carol's 1 SOL of shares at the SOL vault's share price of 1
        expect(sol.attributedTvl).toEqual({ raw: "1000000000", token: "1", usd: null })
        expect(sol.asset).toEqual({ mint: WSOL, symbol: expect.any(String), decimals: 9 })
      }))

    it.effect("negative referred net deposits stay signed; no oracle means null values, never zero", () =>
      Effect.gen(function*() {
        const client = yield* gatewayClient
        const body = yield* client.referrers.summary({ path: { address: BUILDER } })
        const group = body.data.vaults.find((candidate) => candidate.vault === NO_ORACLE_VAULT)!
        expect(group.referredNetDeposits).toEqual({ raw: "-5000000", token: "-5" })
        expect(group.registered).toBe(true)
        expect(group.active).toBe(false)
        expect(group.claimable).toBeNull()
        expect(group.attributedTvl).toBeNull()
        expect(group.attributedUsers).toBe(0)
        expect(group.currentTier).toBeNull()
        expect(group.nextTier).toEqual({ index: 0, threshold: "1000000000", remaining: "1005000000" })
      }))

    it.effect("crossing the top threshold moves currentTier and clears nextTier; overrides give the live rates; a withdrawal moves it back", () =>
      Effect.gen(function*() {
        const client = yield* gatewayClient
        const usdcGroup = Effect.map(client.referrers.summary({ path: { address: BUILDER } }), (body) =>
          body.data.vaults.find((group) => group.vault === USDC_VAULT)!)
        putReferrer(state, USDC_VAULT, BUILDER, { ...builderInUsdc, referredNetDeposits: 5_000_000_000n })
        const top = yield* usdcGroup
        expect(top.currentTier).toEqual({ index: 1, threshold: "5000000000", mfeeBps: 200, pfeeBps: 1_000 })
        expect(top.nextTier).toBeNull()
        putReferrer(state, USDC_VAULT, BUILDER, { ...builderInUsdc, referredNetDeposits: 5_000_000_000n, rateOverrideFlags: 2, customMfeeBps: 333 })
        const overridden = yield* usdcGroup
        expect(overridden.currentTier).toEqual({ index: 1, threshold: "5000000000", mfeeBps: 333, pfeeBps: 1_000 })
        putReferrer(state, USDC_VAULT, BUILDER, { ...builderInUsdc, referredNetDeposits: 999_999_999n })
        const below = yield* usdcGroup
        expect(below.currentTier).toBeNull()
        expect(below.nextTier).toEqual({ index: 0, threshold: "1000000000", remaining: "1" })
        putReferrer(state, USDC_VAULT, BUILDER, builderInUsdc)
      }))

    it.effect("answers from the cohort sums: no position is read or iterated", () =>
      Effect.gen(function*() {
        const client = yield* gatewayClient
        const accounts = state.accounts as Map<string, unknown>
        const scans = ["get", "values", "entries", "keys", "forEach", Symbol.iterator] as const
        const originals = scans.map((method) => [method, accounts[method]] as const)
        for (const method of scans) {
          Object.defineProperty(accounts, method, { configurable: true, value: () => { throw new Error(`summary read state.accounts.${String(method)}`) } })
        }
        const body = yield* Effect.ensuring(
          client.referrers.summary({ path: { address: BUILDER } }),
          Effect.sync(() => { for (const [method] of originals) delete (accounts as unknown as Record<PropertyKey, unknown>)[method] })
        )
        expect(body.data.vaults.find((group) => group.vault === USDC_VAULT)?.attributedUsers).toBe(2)
      }))

    it.effect("a builder with nothing is an empty list while live; a malformed address is 400", () =>
      Effect.gen(function*() {
        const url = yield* serverUrl
        const empty = yield* fetchJson(`${url}/v2/referrer/${ALICE}/summary`, keyed)
        expect(empty.status).toBe(200)
        expect(empty.body.data).toEqual({ referrer: ALICE, vaults: [] })
        const malformed = yield* fetchJson(`${url}/v2/referrer/not-an-address/summary`, keyed)
        expect(malformed.status).toBe(400)
        expect(malformed.body.error).toBe("INVALID_ADDRESS")
        const unkeyed = yield* fetchJson(`${url}/v2/referrer/${BUILDER}/summary`)
        expect(unkeyed.status).toBe(401)
      }))

    it.effect("503 with Retry-After while the projection is not live, never an empty list", () =>
      Effect.gen(function*() {
        const url = yield* serverUrl
        const control = yield* ProjectionControl
        yield* control.setStatus(startingStatus)
        for (const address of [BUILDER, ALICE]) {
          const response = yield* fetchJson(`${url}/v2/referrer/${address}/summary`, keyed)
          expect(response.status).toBe(503)
          expect(response.headers.get("retry-after")).toBe("5")
          expect(response.body.success).toBe(false)
        }
        yield* control.setStatus(liveStatus(2_000))
      }))
  })
})
