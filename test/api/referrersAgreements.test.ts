import { describe, expect, layer } from "@effect/vitest"
import type { Address } from "@solana/kit"
import { Effect } from "effect"
import { presentedKey } from "../../layers/memory/PartnerKeyLive.ts"
import { Unauthorized } from "../../src/api/errors.ts"
import { implementMiddleware } from "../../src/api/middleware.ts"
import { PartnerKey } from "../../src/api/security/PartnerKey.ts"
import { resolveReferralRates } from "../../src/ntbundle/math.ts"
import { fetchJson } from "../support/httpFetch.ts"
import { gatewayForTest, serverUrl } from "../../src/bench/support/httpTestServer.ts"
import { TEST_PARTNER_KEY } from "../../src/bench/support/partnerKeyStandIn.ts"
import { liveStatus, ProjectionControl, startingStatus } from "../../src/bench/support/projectionTest.ts"
import { VaultStateFixture } from "../../src/bench/support/vaultStateFixture.ts"
import { putReferrer, tierSchedule } from "../../src/bench/support/referrersFixture.ts"

const USDC_VAULT = "J7qhMAKnB6G5dvoAN9281ufabajKbyGQxxd2bq6R7fPJ" as Address
const SOL_VAULT = "nE1x7KQq2sm3GQrafQUUdBkSPPT52FmiMM9qAS1dgnC" as Address
const USDC = "EPjFWdd5AufqSSqeM2qN1xzybapC8G4wEGGkZwyTDt1v" as Address
const OWNER = "Es9vMFrzaCERmJfrF4H2FYD4KCoNkY11McCe8BenwNYB" as Address
const OWNER_KEY = "vg_sandbox_owner_key"

/** Two keys: the usual test key (no owner wallet) and one issued for `OWNER`. */
const OwnerKeyStandIn = implementMiddleware(PartnerKey, (request) => {
  const key = presentedKey(request)
  if (key !== OWNER_KEY && key !== TEST_PARTNER_KEY) return Effect.fail(new Unauthorized({ code: "UNAUTHORIZED", message: "an API key is required" }))
  return Effect.succeed({
    provides: { keyId: key, name: "builder", ownerWallet: key === OWNER_KEY ? OWNER : null, environment: "sandbox" as const },
    headers: [] as const
  })
})

const tiers = tierSchedule([
  { threshold: 1_000_000_000n, mfeeBps: 100, pfeeBps: 500 },
  { threshold: 5_000_000_000n, mfeeBps: 200, pfeeBps: 1_000 }
])
const usdcBundle = { assetAddress: USDC, referrerEnabled: true, referrerMinDepositAmount: 50_000_000n, ...tiers }
const fixture = new VaultStateFixture({ slot: 2_000, blockTime: 1_800_000_000 })
  .vault(USDC_VAULT, { bundle: usdcBundle })
  .vault(SOL_VAULT, { bundle: tierSchedule([{ threshold: 0n, mfeeBps: 50, pfeeBps: 70 }]) })
const state = fixture.state
putReferrer(state, USDC_VAULT, OWNER, { referredNetDeposits: 6_000_000_000n, rateOverrideFlags: 1, customPfeeBps: 1_500 })

describe("GET /v2/partner/agreements", () => {
  layer(gatewayForTest({ state, initial: liveStatus(2_000), partnerKey: OwnerKeyStandIn }), { excludeTestServices: true })((it) => {
    it.effect("the owner wallet's terms in every vault: overrides, else the tier at the counter", () =>
      Effect.gen(function*() {
        const url = yield* serverUrl
        const response = yield* fetchJson(`${url}/v2/partner/agreements`, { headers: { "x-api-key": OWNER_KEY } })
        expect(response.status).toBe(200)
        const account = state.referrers.values().next().value!.account
        const settlement = resolveReferralRates(usdcBundle, account)
        expect(settlement).toEqual({ referralPfeeBps: 1_500, referralMfeeBps: 200, referralTierIndex: 1 })
        expect(response.body.data).toEqual({
          ownerWallet: OWNER,
          vaults: [
            {
              vault: USDC_VAULT, registered: true, active: true, referrerEnabled: true, referrerMinDepositAmount: "50000000",
              effectiveMfeeBps: 200, effectivePfeeBps: 1_500, rateOverrideFlags: 1, defaultMfeeBps: 0, defaultPfeeBps: 0
            },
            {
              vault: SOL_VAULT, registered: false, active: false, referrerEnabled: false, referrerMinDepositAmount: "0",
              effectiveMfeeBps: 50, effectivePfeeBps: 70, rateOverrideFlags: 0, defaultMfeeBps: 50, defaultPfeeBps: 70
            }
          ].sort((a, b) => (a.vault < b.vault ? -1 : 1))
        })
      }))

    it.effect("a key without an owner wallet: 403 OWNER_WALLET_REQUIRED, not an empty list", () =>
      Effect.gen(function*() {
        const url = yield* serverUrl
        const response = yield* fetchJson(`${url}/v2/partner/agreements`, { headers: { "x-api-key": TEST_PARTNER_KEY } })
        expect(response.status).toBe(403)
        expect(response.body).toMatchObject({ success: false, error: "OWNER_WALLET_REQUIRED" })
      }))

    it.effect("503 while the projection is not live", () =>
      Effect.gen(function*() {
        const url = yield* serverUrl
        const control = yield* ProjectionControl
        yield* control.setStatus(startingStatus)
        const response = yield* fetchJson(`${url}/v2/partner/agreements`, { headers: { "x-api-key": OWNER_KEY } })
        expect(response.status).toBe(503)
        yield* control.setStatus(liveStatus(2_000))
      }))

    it.effect("the contract marks the default rates deprecated", () =>
      Effect.gen(function*() {
        const url = yield* serverUrl
        const spec = yield* fetchJson(`${url}/openapi.json`)
        const agreement = spec.body.components.schemas.PartnerAgreement
        expect(agreement.properties.defaultMfeeBps.deprecated).toBe(true)
        expect(agreement.properties.defaultPfeeBps.deprecated).toBe(true)
      }))
  })
})
