import { describe, expect, it, layer } from "@effect/vitest"
import type { Address } from "@solana/kit"
import { Effect, Either } from "effect"
import { formatTokenAmount } from "../../src/api/amounts.ts"
import { NotFound } from "../../src/api/errors.ts"
import { sharePrice, totalEquity, vaultValuation } from "../../src/ntbundle/math.ts"
import { fetchJson } from "../support/httpFetch.ts"
import { gatewayClient, gatewayForTest, serverUrl } from "../../src/bench/support/httpTestServer.ts"
import { liveStatus, ProjectionControl, startingStatus } from "../../src/bench/support/projectionTest.ts"
import { TEST_PARTNER_KEY } from "../../src/bench/support/partnerKeyStandIn.ts"
import { VaultStateFixture } from "../../src/bench/support/vaultStateFixture.ts"

const keyed = { headers: { "x-api-key": TEST_PARTNER_KEY } }

const MASTER = "J7qhMAKnB6G5dvoAN9281ufabajKbyGQxxd2bq6R7fPJ" as Address // registry id 76
const UNLISTED = "BUNDeH5A4c47bcEoAjBhN3sCjLgYnRsmt9ibMztqVkC9" as Address // not in the catalog
const NO_ORACLE = "MemoSq4gqABAXKb96qnH8TysNcWxMyWCqXgDLGmfcHr" as Address
const USDC = "EPjFWdd5AufqSSqeM2qN1xzybapC8G4wEGGkZwyTDt1v" as Address

const masterBundle = {
  assetAddress: USDC,
  assetDecimals: 6,
  assetPrecision: 1_000_000n,
  bundleUnderlyingBalance: 1_234_567_890n,
  totalShares: 1_100_000_000n,
  depositFee: 0,
  managementFeeBps: 100,
  performanceFee: 0,
  withdrawalFee: 30,
  minDepositAmount: 5_000_000n,
  maxDepositAmount: 10_000_000_000_000n,
  withdrawalDelay: 86_400n,
  withdrawalTMin: 3_600n,
  withdrawalTMax: 604_800n,
  withdrawalCurve: 2,
  referrerEnabled: true,
  referrerMinDepositAmount: 0n,
  tierCount: 2,
  referralTiers: [
    { threshold: 0n, pfeeBps: 0, mfeeBps: 1_000 },
    { threshold: 10_000_000_000n, pfeeBps: 0, mfeeBps: 2_500 },
    { threshold: 99n, pfeeBps: 9, mfeeBps: 9 }, // beyond tier_count: not configured
    { threshold: 0n, pfeeBps: 0, mfeeBps: 0 },
    { threshold: 0n, pfeeBps: 0, mfeeBps: 0 }
  ]
}
const masterOracle = { averageExternalEquity: 765_432_110n, lastUpdateTime: 1_799_999_940n }

const fixture = new VaultStateFixture({ slot: 1_000, blockTime: 1_800_000_000 })
  .vault(MASTER, { bundle: masterBundle, oracle: masterOracle, temp: { pausedDepositsWithdrawals: true } })
  .vault(UNLISTED, { bundle: { name: new TextEncoder().encode("private-one".padEnd(32, "\0")) } })
  .vault(NO_ORACLE, { oracle: null })

describe("vault reads", () => {
  layer(gatewayForTest({ state: fixture.state, initial: liveStatus(1_000) }), { excludeTestServices: true })((it) => {
    it.effect("GET /v2/vault/{address}: the record agrees with the chain accounts and the math", () =>
      Effect.gen(function*() {
        const client = yield* gatewayClient
        const body = yield* client.vaults.get({ path: { vaultAddress: MASTER } })
        expect(body.success).toBe(true)
        expect(body.asOf).toEqual({ slot: 1_000, blockTime: 1_800_000_000 })
        const valuation = vaultValuation({ bundle: masterBundle, oracle: masterOracle })
        const equity = totalEquity({ bundle: masterBundle, oracle: masterOracle })
        expect(equity).toBe(2_000_000_000n)
        expect(body.data).toEqual({
          bundleKey: MASTER,
          legacyVaultId: 76,
          name: "Master Bundle",
          category: "masterVault",
          asset: { mint: USDC, symbol: "USDC", decimals: 6 },
          visible: true,
          private: false,
          enabled: true,
          deprecated: false,
          depositFeeBps: 0,
          managementFeeBps: 100,
          performanceFeeBps: 0,
          withdrawalFeeBps: 30,
          minDepositAmount: "5000000",
          maxCap: "10000000000000",
          paused: true,
          permissioned: false,
          oracleAgeSeconds: 60,
          processFrequency: null,
          tvl: { raw: equity.toString(), token: "2000", usd: null },
          sharePrice: sharePrice(valuation).toString(),
          totalShares: "1100000000",
          withdrawalPolicy: {
            delaySeconds: 86_400,
            cooldown: { tMinSeconds: 3_600, tMaxSeconds: 604_800, curve: 2 },
            redemptionSchedule: null
          },
          referral: {
            enabled: true,
            mfeeBps: 1_000,
            pfeeBps: 0,
            minDepositAmount: "0",
            tiers: [
              { threshold: "0", mfeeBps: 1_000, pfeeBps: 0 },
              { threshold: "10000000000", mfeeBps: 2_500, pfeeBps: 0 }
            ]
          }
        })
        expect(body.data.sharePrice).toBe("1818181")
      }))

    it.effect("GET /v2/vaults lists every Bundle of the program, catalog or not", () =>
      Effect.gen(function*() {
        const client = yield* gatewayClient
        const body = yield* client.vaults.list()
        const byKey = new Map(body.data.map((vault) => [vault.bundleKey, vault]))
        expect([...byKey.keys()].sort()).toEqual([MASTER, UNLISTED, NO_ORACLE].sort())
        expect(byKey.get(UNLISTED)).toMatchObject({ legacyVaultId: null, name: "private-one", category: null, visible: false })
        // No oracle account seen yet: no made-up equity.
        expect(byKey.get(NO_ORACLE)).toMatchObject({ tvl: null, sharePrice: null, oracleAgeSeconds: null })
      }))

    it.effect("errors: v1 numeric id 404 naming base58, malformed 400, unknown 404, not live 503", () =>
      Effect.gen(function*() {
        const url = yield* serverUrl
        const client = yield* gatewayClient
        const legacy = yield* fetchJson(`${url}/v2/vault/76`, keyed)
        expect(legacy.status).toBe(404)
        expect(legacy.body).toMatchObject({ success: false, error: "VAULT_NOT_FOUND" })
        expect(legacy.body.message).toMatch(/base58/)
        const malformed = yield* fetchJson(`${url}/v2/vault/not-an-address`, keyed)
        expect(malformed.status).toBe(400)
        expect(malformed.body).toMatchObject({ success: false, error: "INVALID_ADDRESS" })
        const unknown = yield* Effect.either(client.vaults.get({ path: { vaultAddress: "11111111111111111111111111111111" } }))
        expect(Either.isLeft(unknown) && unknown.left instanceof NotFound && unknown.left.code === "VAULT_NOT_FOUND").toBe(true)

        const control = yield* ProjectionControl
        yield* control.setStatus(startingStatus)
        const unavailable = yield* fetchJson(`${url}/v2/vault/${MASTER}`, keyed)
        expect(unavailable.status).toBe(503)
        expect(unavailable.headers.get("retry-after")).toBe("5")
        expect(unavailable.body).not.toHaveProperty("data")
        expect((yield* fetchJson(`${url}/v2/vaults`, keyed)).status).toBe(503)
        yield* control.setStatus(liveStatus(1_000))
      }))

    it.effect("the vault and user routes need a partner key: 401 without one, rate-limit headers with one", () =>
      Effect.gen(function*() {
        const url = yield* serverUrl
        for (const path of ["/v2/vaults", `/v2/vault/${MASTER}`, `/v2/vault/${MASTER}/user/${MASTER}/balance`, `/v2/user/${MASTER}/portfolio`, "/v2/platform/stats"]) {
          const anonymous = yield* fetchJson(`${url}${path}`)
          expect(anonymous.status).toBe(401)
          expect(anonymous.body).toMatchObject({ success: false, error: "UNAUTHORIZED" })
          const bearer = yield* fetchJson(`${url}${path}`, { headers: { authorization: `Bearer ${TEST_PARTNER_KEY}` } })
          expect(bearer.status).not.toBe(401)
          expect(bearer.headers.get("x-ratelimit-limit")).toBe("1000")
        }
      }))

    it.effect("bodies are encoded once per projection version", () =>
      Effect.gen(function*() {
        const url = yield* serverUrl
        const first = yield* fetchJson(`${url}/v2/vault/${MASTER}`, keyed)
        const second = yield* fetchJson(`${url}/v2/vault/${MASTER}`, keyed)
        expect(second.body).toEqual(first.body)
      }))
  })
})

describe("formatTokenAmount", () => {
  it("writes raw / 10^decimals exactly", () => {
    expect(formatTokenAmount(123_450_000n, 6)).toBe("123.45")
    expect(formatTokenAmount(0n, 6)).toBe("0")
    expect(formatTokenAmount(1n, 9)).toBe("0.000000001")
    expect(formatTokenAmount(-500_000n, 6)).toBe("-0.5")
    expect(formatTokenAmount(7n, 0)).toBe("7")
    expect(formatTokenAmount(123_456_789_012_345_678_901_234_567_890n, 18)).toBe("123456789012.34567890123456789")
  })

  it("agrees with the textbook pad-split-trim on random amounts and decimals", () => {
    const reference = (raw: bigint, decimals: number): string => {
      const digits = (raw < 0n ? -raw : raw).toString()
      if (decimals <= 0) return raw < 0n ? `-${digits}` : digits
      const padded = digits.padStart(decimals + 1, "0")
      const fraction = padded.slice(padded.length - decimals).replace(/0+$/, "")
      const text = fraction === "" ? padded.slice(0, padded.length - decimals) : `${padded.slice(0, padded.length - decimals)}.${fraction}`
      return raw < 0n ? `-${text}` : text
    }
    for (let i = 0; i < 5_000; i++) {
      const digits = 1 + Math.floor(Math.random() * 30)
      let raw = BigInt(Math.floor(Math.random() * 10 ** Math.min(digits, 15))) * 10n ** BigInt(Math.floor(Math.random() * 16))
      if (Math.random() < 0.3) raw = -raw
      const decimals = Math.floor(Math.random() * 20)
      expect(formatTokenAmount(raw, decimals), `${raw} at ${decimals}`).toBe(reference(raw, decimals))
    }
  })
})
