import type { Address } from "@solana/kit"
import { Layer } from "effect"
import { UserActivityLive } from "../../../layers/postgres/UserActivityLive.ts"
import { seedUserEvents } from "./userEvents.ts"
import { PartnerKeyLive } from "../../../layers/memory/PartnerKeyLive.ts"
import { RateLimiterLive } from "../../../layers/memory/RateLimiterLive.ts"
import { BuilderCodesLive } from "../../../layers/postgres/BuilderCodesLive.ts"
import { KeyUsageLive } from "../../../layers/postgres/KeyUsageLive.ts"
import { PartnerKeysLive } from "../../../layers/postgres/PartnerKeysLive.ts"
import { wallet } from "../../../src/bench/support/buildWorld.ts"
import { gatewayForTest } from "../../../src/bench/support/httpTestServer.ts"
import { liveStatus } from "../../../src/bench/support/projectionTest.ts"
import { TestDatabase } from "../../../src/bench/support/testDatabase.ts"
import { VaultStateFixture } from "../../../src/bench/support/vaultStateFixture.ts"
import { ControlPlaneLive } from "../../../src/commands/controlPlaneServe.ts"
import type { DailyRow } from "../../../src/domain/history/dailyRow.ts"
import { testSettings } from "../../api/controlPlane/controlPlaneServer.ts"

// Registry vaults (legacy ids 76 and 48), so the v1 routes find them too.
export const MASTER = "J7qhMAKnB6G5dvoAN9281ufabajKbyGQxxd2bq6R7fPJ" as Address
export const FUNDING_ARB = "nE1x7KQq2sm3GQrafQUUdBkSPPT52FmiMM9qAS1dgnC" as Address
export const UNLISTED = "BUNDeH5A4c47bcEoAjBhN3sCjLgYnRsmt9ibMztqVkC9" as Address
export const UNKNOWN_VAULT = "4k3Dyjzvzp8eMZWUXbBCjEvwSkkk59S5iCNLY3QrkX6R" as Address
export const USDC = "EPjFWdd5AufqSSqeM2qN1xzybapC8G4wEGGkZwyTDt1v" as Address
export const BUILDER = "Es9vMFrzaCERmJfrF4H2FYD4KCoNkY11McCe8BenwNYB" as Address
// users are real ed25519 keys (on the curve), so the builders accept them
export const ALICE = wallet("alice")
export const BOB = wallet("bob")
export const NOBODY = "9xQeWvG816bUx9EPjHmaT23yvVM2ZWbrrpZb9PusVFin" as Address
export const LEGACY_IDS = ["76", "48"]

// Chain time: 2027-01-15 08:00 UTC.
export const NOW = Date.UTC(2027, 0, 15, 8) / 1000

const day = (index: number) => new Date(Date.UTC(2026, 11, 1) + index * 86_400_000).toISOString().slice(0, 10)
const history: Array<DailyRow> = Array.from({ length: 45 }, (_, i) => ({
  date: day(i),
  closingSharePrice: i < 2 ? null : 1_000_000n + BigInt(i - 2) * 500n,
  closingTotalShares: i < 2 ? null : 3_000_000n,
  depositsRequested: BigInt(i) * 1_000n,
  depositFees: 0n,
  withdrawalsPaid: 0n,
  withdrawalFees: 0n,
  feesCharged: 0n,
  events: 1
}))

const vaultBundle = {
  assetAddress: USDC, assetPrecision: 1_000_000n, assetDecimals: 6, bundleUnderlyingBalance: 600_000_000n,
  totalShares: 1_000_000_000n, minDepositAmount: 1_000_000n, maxDepositAmount: 2_500_000_000_000n, depositFee: 10,
  withdrawalFee: 30, withdrawalTMin: 3_600n, withdrawalTMax: 86_400n, withdrawalCurve: 1, referrerEnabled: true,
  managementFeeBps: 100, performanceFee: 2_000
}

/** The projection the contract run reads: two registry vaults, an unlisted one, positions bound to a builder. */
export const contractFixture = () =>
  new VaultStateFixture({ slot: 5_000, blockTime: NOW })
    .vault(MASTER, { bundle: vaultBundle, oracle: { averageExternalEquity: 500_000_000n, lastUpdateTime: BigInt(NOW - 30) } })
    .vault(FUNDING_ARB, { bundle: { ...vaultBundle, totalShares: 3_000_000_000n } })
    .vault(UNLISTED, { bundle: { assetAddress: USDC }, oracle: null })
    .position(MASTER, ALICE, {
      shares: 400_000_000n, netDeposits: 350_000_000n, pendingDeposit: 25_000_000n, lastDepositTimestamp: BigInt(NOW - 600),
      pendingShares: 100_000_000n, estimatedPendingWithdrawalValue: 200_000_000n, withdrawalAvailableTimestamp: BigInt(NOW + 3_600),
      referrer: BUILDER
    })
    .position(MASTER, BOB, { shares: 600_000_000n, netDeposits: -20_000_000n, referrer: BUILDER })
    .position(FUNDING_ARB, ALICE, { shares: 1_000_000_000n, netDeposits: 900_000_000n, referrer: BUILDER })

/**
 * The gateway as `serve` composes it for the contract run: the real HTTP transport, handlers,
 * control plane (wallet sessions, organizations, keys, codes in PostgreSQL) and partner keys checked
 * against the database, over a live in-memory projection of `fixture`. Limits are high so that
 * thousands of requests from one address are not all 429s.
 */
export const contractGateway = (fixture: VaultStateFixture) => {
  // one usage counter for the partner keys and the control plane's usage route
  const usage = KeyUsageLive({ flushSeconds: 1 })
  return gatewayForTest({
    state: fixture.state,
    initial: liveStatus(5_000, { asOf: { slot: 5_000, blockTime: NOW } }),
    history: new Map([[MASTER, history], [FUNDING_ARB, history.slice(10)]]),
    buildsPerMinute: 1_000_000,
    controlPlane: ControlPlaneLive(testSettings({ signInQuota: { limit: 1_000_000, windowSeconds: 60 } })).pipe(Layer.provide(usage), Layer.orDie),
    partnerKey: PartnerKeyLive({ cluster: "sandbox", defaultQuota: { limit: 1_000_000, windowSeconds: 600 }, cacheTtlMs: 15_000 }).pipe(
      Layer.provide(Layer.mergeAll(PartnerKeysLive, RateLimiterLive, usage)),
      Layer.orDie
    ),
    builderCodes: BuilderCodesLive,
    // a wallet's events in the log, read by the user history routes
    userActivity: Layer.merge(
      UserActivityLive,
      Layer.effectDiscard(seedUserEvents({ vault: MASTER, otherVault: FUNDING_ARB, alice: ALICE, bob: BOB }))
    ).pipe(Layer.orDie)
  }).pipe(Layer.provideMerge(TestDatabase))
}
