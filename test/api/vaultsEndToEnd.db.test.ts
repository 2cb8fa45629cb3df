import { FetchHttpClient, HttpApi, HttpApiClient, HttpClient, HttpClientRequest } from "@effect/platform"
import { describe, expect, it } from "@effect/vitest"
import type { Address } from "@solana/kit"
import { Context, Effect, Layer } from "effect"
import { ApiRoutesLive } from "../../layers/uws/ApiRoutes.ts"
import { HttpListener } from "../../layers/uws/HttpServer.ts"
import { NoPricesLive } from "../../layers/memory/PricesLive.ts"
import { formatTokenAmount } from "../../src/api/amounts.ts"
import { BadRequestResponse, InternalErrorResponse } from "../../src/api/errors.ts"
import { VaultsApi } from "../../src/api/vaults/VaultsApi.ts"
import { VaultsHandlersLive } from "../../src/api/vaults/VaultsHandlers.ts"
import { decodeAccount } from "../../src/ntbundle/accounts.ts"
import { MAX_REFERRAL_TIERS, sharePrice, totalEquity, vaultValuation } from "../../src/ntbundle/math.ts"
import { findOraclePda } from "../../src/ntbundle/pdas.ts"
import { NTBUNDLE_PROGRAM_ID } from "../../src/ntbundle/programs.ts"
import { listenForTest } from "../../src/bench/support/httpTestServer.ts"
import { PartnerKeyStandIn, TEST_PARTNER_KEY } from "../../src/bench/support/partnerKeyStandIn.ts"
import { liveIngestion, scenarioSandbox, settledAgainstTruth, stepSlots } from "../support/ingestHarness.ts"

// The vault routes alone, under the gateway's API id so that the gateway's handlers serve them.
const VaultReadsApi = HttpApi.make("vault-gateway").add(VaultsApi).addError(BadRequestResponse).addError(InternalErrorResponse)

const scenario = { seed: 7, users: 16, builders: 2, activity: 10, keeperIntervalSlots: 8 } as const

describe("vault records against the sandbox chain", () => {
  it.live("each vault's record equals the ntbundle math over the sandbox truth", () =>
    Effect.gen(function*() {
      const sandbox = yield* scenarioSandbox(scenario)
      const { ingest } = yield* liveIngestion(sandbox)
      yield* stepSlots(sandbox, 40)
      sandbox.scenario.stop()
      yield* stepSlots(sandbox, 3)
      const { truth } = yield* settledAgainstTruth(sandbox).pipe(Effect.provide(ingest))

      const routes = ApiRoutesLive(VaultReadsApi).pipe(Layer.provide(Layer.merge(VaultsHandlersLive, PartnerKeyStandIn)), Layer.provide(NoPricesLive))
      const server = yield* Layer.build(listenForTest(routes).pipe(Layer.provide(Layer.succeedContext(ingest))))
      const client = yield* HttpApiClient.make(VaultReadsApi, {
        baseUrl: Context.get(server, HttpListener).url,
        transformClient: HttpClient.mapRequest(HttpClientRequest.setHeader("x-api-key", TEST_PARTNER_KEY))
      }).pipe(
        Effect.provide(FetchHttpClient.layer)
      )
      const list = yield* client.vaults.list()

      const decoded = new Map([...truth.accounts].map(([address, data]) => [address, decodeAccount(Buffer.from(data, "base64"))]))
      const bundles = [...decoded].flatMap(([address, account]) =>
        account._tag === "Right" && account.right.type === "Bundle" ? [[address, account.right.data] as const] : []
      )
      expect(bundles.length).toBeGreaterThan(0)
      expect(list.data.map((vault) => vault.bundleKey).sort()).toEqual(bundles.map(([address]) => address).sort())
      for (const [address, bundle] of bundles) {
        const oracleAccount = decoded.get(findOraclePda(NTBUNDLE_PROGRAM_ID, address as Address)[0])
        if (oracleAccount === undefined || oracleAccount._tag !== "Right" || oracleAccount.right.type !== "OracleData") {
          throw new Error(`vault ${address} has no oracle account in the truth`)
        }
        const oracle = oracleAccount.right.data
        const equity = totalEquity({ bundle, oracle })
        const record = (yield* client.vaults.get({ path: { vaultAddress: address } })).data
        expect(list.data.find((vault) => vault.bundleKey === address)).toEqual(record)
        expect(record.tvl).toEqual({ raw: equity.toString(), token: formatTokenAmount(equity, bundle.assetDecimals), usd: null })
        expect(record.sharePrice).toBe(sharePrice(vaultValuation({ bundle, oracle })).toString())
        expect(record.totalShares).toBe(bundle.totalShares.toString())
        expect(record.asset).toMatchObject({ mint: bundle.assetAddress, decimals: bundle.assetDecimals })
        expect(record.referral.enabled).toBe(bundle.referrerEnabled)
        expect(record.referral.tiers).toEqual(
          bundle.referralTiers.slice(0, Math.min(bundle.tierCount, MAX_REFERRAL_TIERS)).map((tier) => ({
            threshold: tier.threshold.toString(),
            mfeeBps: tier.mfeeBps,
            pfeeBps: tier.pfeeBps
          }))
        )
        expect(record.minDepositAmount).toBe(bundle.minDepositAmount.toString())
        expect(record.maxCap).toBe(bundle.maxDepositAmount.toString())
      }
      expect(list.data.some((vault) => vault.tvl !== null && vault.tvl.raw !== "0" && vault.sharePrice !== vault.tvl.raw)).toBe(true)
      // The scenario configures referral ladders: at least one vault must carry tiers.
      expect(list.data.some((vault) => vault.referral.tiers.length > 0)).toBe(true)
    }).pipe(Effect.scoped), 120_000)
})
