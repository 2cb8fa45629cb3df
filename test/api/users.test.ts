import { describe, expect, layer } from "@effect/vitest"
import type { Address } from "@solana/kit"
import { Effect, Either } from "effect"
import { NotFound } from "../../src/api/errors.ts"
import type { DailyRow } from "../../src/domain/history/dailyRow.ts"
import { assetsFromShares, bundleCooldownCurve, cooldownSeconds, estimatePendingFees, resolveEffectiveFees, vaultValuation } from "../../src/ntbundle/math.ts"
import { fetchJson } from "../support/httpFetch.ts"
import { gatewayClient, gatewayForTest, serverUrl } from "../../src/bench/support/httpTestServer.ts"
import { liveStatus, ProjectionControl, startingStatus } from "../../src/bench/support/projectionTest.ts"
import { TEST_PARTNER_KEY } from "../../src/bench/support/partnerKeyStandIn.ts"
import { VaultStateFixture } from "../../src/bench/support/vaultStateFixture.ts"

const keyed = { headers: { "x-api-key": TEST_PARTNER_KEY } }

const USDC_VAULT = "J7qhMAKnB6G5dvoAN9281ufabajKbyGQxxd2bq6R7fPJ" as Address
const SOL_VAULT = "nE1x7KQq2sm3GQrafQUUdBkSPPT52FmiMM9qAS1dgnC" as Address
const DEGRADED_VAULT = "BUNDeH5A4c47bcEoAjBhN3sCjLgYnRsmt9ibMztqVkC9" as Address
const USDC = "EPjFWdd5AufqSSqeM2qN1xzybapC8G4wEGGkZwyTDt1v" as Address
const WSOL = "So11111111111111111111111111111111111111112" as Address
const ALICE = "7vfCXTUXx5WJV5JADk17DUJ4ksgau7utNKj4b963voxs" as Address
const BOB = "3NZ9JMVBmGAqocybic2c7LQCJScmgsAZ6vQqTDzcqmJh" as Address
const NOBODY = "Es9vMFrzaCERmJfrF4H2FYD4KCoNkY11McCe8BenwNYB" as Address
const NOW = 1_800_000_000

const usdcBundle = {
  assetAddress: USDC, assetDecimals: 6, assetPrecision: 1_000_000n,
  bundleUnderlyingBalance: 1_500_000_000n, totalShares: 1_000_000_000n,
  managementFeeBps: 100, performanceFee: 2_000
}
const usdcOracle = { averageExternalEquity: 500_000_000n, lastUpdateTime: BigInt(NOW - 30) }
const solBundle = {
  assetAddress: WSOL, assetDecimals: 9, assetPrecision: 1_000_000_000n,
  bundleUnderlyingBalance: 3_000_000_000n, totalShares: 3_000_000_000n
}
const aliceUsdc = {
  shares: 400_000_000n, netDeposits: 350_000_000n, pendingDeposit: 25_000_000n, lastDepositTimestamp: BigInt(NOW - 600),
  hwmPerShare: 1_500_000n, lastManagementFeeTimestamp: BigInt(NOW - 86_400 * 30), totalFeeCharged: 1_234n,
  pendingShares: 100_000_000n, estimatedPendingWithdrawalValue: 200_000_000n, withdrawalAvailableTimestamp: BigInt(NOW + 3_600)
}

const fixture = new VaultStateFixture({ slot: 2_000, blockTime: NOW })
  .vault(USDC_VAULT, { bundle: usdcBundle, oracle: usdcOracle })
  .vault(SOL_VAULT, { bundle: solBundle })
  .vault(DEGRADED_VAULT, { bundle: { assetAddress: USDC }, oracle: null })
  .position(USDC_VAULT, ALICE, aliceUsdc)
  .position(SOL_VAULT, ALICE, { shares: 1_000_000_000n, netDeposits: 900_000_000n })
  .position(DEGRADED_VAULT, ALICE, { shares: 5n })
  .position(USDC_VAULT, BOB, { shares: 600_000_000n, netDeposits: -20_000_000n })

describe("user reads", () => {
  const flowDay = (date: string, depositsRequested: bigint, withdrawalsPaid = 0n): DailyRow => ({
    date, closingSharePrice: null, closingTotalShares: null, depositsRequested, depositFees: 0n,
    withdrawalsPaid, withdrawalFees: 0n, feesCharged: 0n, events: 1
  })
  const history = new Map([[USDC_VAULT, [flowDay("2026-01-01", 3_000_000n), flowDay("2026-01-02", 4_000_000n, 1_500_000n)]]])
  layer(gatewayForTest({ state: fixture.state, initial: liveStatus(2_000), history }), { excludeTestServices: true })((it) => {
    it.effect("balance: shares, value and unpaid fees from the ntbundle math", () =>
      Effect.gen(function*() {
        const client = yield* gatewayClient
        const body = yield* client.users.balance({ path: { vaultAddress: USDC_VAULT, wallet: ALICE } })
        const valuation = vaultValuation({ bundle: usdcBundle, oracle: usdcOracle })
        const value = assetsFromShares(valuation, aliceUsdc.shares)
        expect(value).toBe(800_000_000n)
        const fees = estimatePendingFees(valuation, aliceUsdc, resolveEffectiveFees({ ...usdcBundle, depositFee: 0, withdrawalFee: 0 }, null), BigInt(NOW))
        expect(fees.totalFeeShares > 0n).toBe(true)
        expect(body.asOf).toEqual({ slot: 2_000, blockTime: NOW })
        expect(body.data).toEqual({
          vault: USDC_VAULT,
          user: ALICE,
          asset: { mint: USDC, symbol: "USDC", decimals: 6 },
          shares: { raw: "400000000", token: "400" },
          value: { raw: "800000000", token: "800", usd: null },
          netDeposits: { raw: "350000000", token: "350" },
          earnings: { raw: "450000000", token: "450" },
          pendingDeposit: { raw: "25000000", token: "25" },
          feesPaid: { raw: "1234", token: "0.001234" },
          unpaidFeeEstimate: {
            estimatedAt: NOW,
            totalFeeShares: { raw: fees.totalFeeShares.toString(), token: expect.any(String) },
            value: { raw: fees.feeValueRaw.toString(), token: expect.any(String), usd: null }
          }
        })
        const bob = yield* client.users.balance({ path: { vaultAddress: USDC_VAULT, wallet: BOB } })
        expect(bob.data.netDeposits).toEqual({ raw: "-20000000", token: "-20" })
      }))

    it.effect("balance and pending: 404 NO_POSITION, 400 for a malformed wallet, 404 for a v1 id", () =>
      Effect.gen(function*() {
        const client = yield* gatewayClient
        const url = yield* serverUrl
        const none = yield* Effect.either(client.users.balance({ path: { vaultAddress: SOL_VAULT, wallet: BOB } }))
        expect(Either.isLeft(none) && none.left instanceof NotFound && none.left.code === "NO_POSITION").toBe(true)
        const pendingNone = yield* fetchJson(`${url}/v2/vault/${USDC_VAULT}/user/${NOBODY}/pending`, keyed)
        expect(pendingNone.status).toBe(404)
        expect(pendingNone.body.error).toBe("NO_POSITION")
        const badWallet = yield* fetchJson(`${url}/v2/vault/${USDC_VAULT}/user/0xabc/balance`, keyed)
        expect(badWallet.status).toBe(400)
        expect(badWallet.body.error).toBe("INVALID_ADDRESS")
        const legacy = yield* fetchJson(`${url}/v2/vault/76/user/${ALICE}/balance`, keyed)
        expect(legacy.status).toBe(404)
        expect(legacy.body.error).toBe("VAULT_NOT_FOUND")
      }))

    it.effect("pending without an event log: stages and amounts from the account, requestedAt never null", () =>
      Effect.gen(function*() {
        const client = yield* gatewayClient
        const body = yield* client.users.pending({ path: { vaultAddress: USDC_VAULT, wallet: ALICE } })
        const bundle = fixture.state.vaults.get(USDC_VAULT)!.bundle
        // No request event to read: the withdrawal's time is its availability minus the vault's cooldown for it.
        const cooldown = cooldownSeconds(bundleCooldownCurve(bundle), aliceUsdc.pendingShares, bundle.totalShares)
        expect(body.data).toEqual({
          user: ALICE,
          vaultId: USDC_VAULT,
          deposits: [{ stage: "requested", requestedAt: NOW - 600, settledAt: null, cooldownEnd: null, etaProcessAt: null, amounts: { net: "25000000" } }],
          withdrawals: [{
            stage: "requested", requestedAt: NOW + 3_600 - Number(cooldown), settledAt: null, cooldownEnd: NOW + 3_600, etaProcessAt: NOW + 3_600,
            amounts: { shares: "100000000", estimatedValue: "200000000" }
          }]
        })
        const bob = yield* client.users.pending({ path: { vaultAddress: USDC_VAULT, wallet: BOB } })
        expect(bob.data.deposits).toEqual([])
        expect(bob.data.withdrawals).toEqual([])
      }))

    it.effect("portfolio: positions, per-asset totals, unpriced assets and degraded vaults", () =>
      Effect.gen(function*() {
        const client = yield* gatewayClient
        const body = yield* client.users.portfolio({ path: { wallet: ALICE } })
        const byVault = new Map(body.data.positions.map((position) => [position.vault, position]))
        expect([...byVault.keys()].sort()).toEqual([USDC_VAULT, SOL_VAULT].sort())
        expect(byVault.get(SOL_VAULT)!.value).toEqual({ raw: "1000000000", token: "1", usd: null })
        expect(body.data.totals).toHaveLength(2)
        expect(body.data.totals.find((total) => total.asset.mint === USDC)!.value.raw).toBe("800000000")
        expect(body.data.totalUsd).toBeNull()
        expect([...body.data.unpricedAssets].sort()).toEqual([USDC, WSOL].sort())
        expect(body.data.degradedVaults).toEqual([DEGRADED_VAULT])
        const empty = yield* client.users.portfolio({ path: { wallet: NOBODY } })
        expect(empty.data).toMatchObject({ positions: [], totals: [], totalUsd: 0, unpricedAssets: [] })
      }))

    it.effect("platform stats: TVL and net deposits per asset, distinct active users", () =>
      Effect.gen(function*() {
        const client = yield* gatewayClient
        const body = yield* client.platform.stats()
        expect(body.data.vaultCount).toBe(3)
        expect(body.data.activeUsers).toBe(2)
        const usdc = body.data.assets.find((stats) => stats.asset.mint === USDC)!
        expect(usdc).toMatchObject({
          vaultCount: 2,
          tvl: { raw: "2000000000", usd: null },
          netDeposits: { raw: "5500000", token: "5.5" },
          cumulativeDeposits: { raw: "7000000", token: "7" }
        })
        expect(body.data.degradedVaults).toEqual([DEGRADED_VAULT])
        expect(body.data.tvlUsd).toBeNull()
        // nothing priced (this server has no price feeds): the freshness of no price is null
        expect(body.priceAsOf).toBeNull()
      }))

    it.effect("503 with Retry-After while the projection is not live", () =>
      Effect.gen(function*() {
        const url = yield* serverUrl
        const control = yield* ProjectionControl
        yield* control.setStatus(startingStatus)
        for (const path of [`/v2/vault/${USDC_VAULT}/user/${ALICE}/balance`, `/v2/user/${ALICE}/portfolio`, "/v2/platform/stats"]) {
          const response = yield* fetchJson(`${url}${path}`, keyed)
          expect(response.status).toBe(503)
          expect(response.headers.get("retry-after")).toBe("5")
        }
        yield* control.setStatus(liveStatus(2_000))
      }))
  })
})
