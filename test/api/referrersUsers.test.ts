import { describe, expect, layer } from "@effect/vitest"
import type { Address } from "@solana/kit"
import { Effect } from "effect"
import { findUserBundlePda } from "../../src/ntbundle/pdas.ts"
import { NTBUNDLE_PROGRAM_ID } from "../../src/ntbundle/programs.ts"
import { fetchJson } from "../support/httpFetch.ts"
import { gatewayForTest, serverUrl } from "../../src/bench/support/httpTestServer.ts"
import { TEST_PARTNER_KEY } from "../../src/bench/support/partnerKeyStandIn.ts"
import { liveStatus, ProjectionControl, startingStatus } from "../../src/bench/support/projectionTest.ts"
import { VaultStateFixture } from "../../src/bench/support/vaultStateFixture.ts"
import { CohortEventLogStandIn } from "../../src/bench/support/cohortEventLogStandIn.ts"

const keyed = { headers: { "x-api-key": TEST_PARTNER_KEY } }
const USDC_VAULT = "J7qhMAKnB6G5dvoAN9281ufabajKbyGQxxd2bq6R7fPJ" as Address
const SOL_VAULT = "nE1x7KQq2sm3GQrafQUUdBkSPPT52FmiMM9qAS1dgnC" as Address
const UNKNOWN_VAULT = "BUNDeH5A4c47bcEoAjBhN3sCjLgYnRsmt9ibMztqVkC9" as Address
const USDC = "EPjFWdd5AufqSSqeM2qN1xzybapC8G4wEGGkZwyTDt1v" as Address
const BUILDER = "Es9vMFrzaCERmJfrF4H2FYD4KCoNkY11McCe8BenwNYB" as Address
const ALICE = "7vfCXTUXx5WJV5JADk17DUJ4ksgau7utNKj4b963voxs" as Address
const BOB = "3NZ9JMVBmGAqocybic2c7LQCJScmgsAZ6vQqTDzcqmJh" as Address
const CAROL = "9xQeWvG816bUx9EPjHmaT23yvVM2ZWbrrpZb9PusVFin" as Address
const NOBODY = "4k3Dyjzvzp8eMZWUXbBCjEvwSkkk59S5iCNLY3QrkX6R" as Address
const NOW = 1_800_000_000

const usdcBundle = { assetAddress: USDC, bundleUnderlyingBalance: 1_500_000_000n, totalShares: 1_000_000_000n }
const usdcOracle = { averageExternalEquity: 500_000_000n, lastUpdateTime: BigInt(NOW) }
const bound = {
  [ALICE]: { shares: 400_000_000n, netDeposits: 350_000_000n, pendingDeposit: 1n, lastDepositTimestamp: BigInt(NOW - 60), referrer: BUILDER },
  [BOB]: { shares: 100_000_000n, netDeposits: -20_000_000n, referrer: BUILDER },
  [CAROL]: { shares: 0n, netDeposits: 0n, referrer: BUILDER }
} as const

const fixture = new VaultStateFixture({ slot: 3_000, blockTime: NOW })
  .vault(USDC_VAULT, { bundle: usdcBundle, oracle: usdcOracle })
  .vault(SOL_VAULT, { bundle: { totalShares: 10n, bundleUnderlyingBalance: 10n } })
  .position(USDC_VAULT, ALICE, bound[ALICE])
  .position(USDC_VAULT, BOB, bound[BOB])
  .position(USDC_VAULT, CAROL, bound[CAROL])
  .position(USDC_VAULT, NOBODY, { shares: 5n })
  .position(SOL_VAULT, ALICE, { shares: 10n, referrer: BUILDER })

// Alice's USDC binding is in the event log (rates at binding differ from anything live); Bob's and Carol's are not.
const aliceBinding = {
  referrer: BUILDER, vault: USDC_VAULT, wallet: ALICE, slot: 1_234, time: NOW - 86_400,
  referralPfeeBps: 0, referralMfeeBps: 1_000, referralTierIndex: 0
}
// Another builder's binding of the same pair must not be taken for this builder's.
const foreignBinding = { ...aliceBinding, referrer: NOBODY, slot: 1, time: NOW - 99_999, referralMfeeBps: 4_000 }

const positionOf = (owner: Address, vault: Address) => findUserBundlePda(NTBUNDLE_PROGRAM_ID, owner, vault)[0]

const walk = (url: string, query: string, limit: number) =>
  Effect.gen(function*() {
    const seen: Array<string> = []
    let cursor: string | null = null
    for (let pages = 0; pages < 20; pages++) {
      const page: string = cursor === null ? "" : `&cursor=${encodeURIComponent(cursor)}`
      const response = yield* fetchJson(`${url}/v2/referrer/${BUILDER}/users?limit=${limit}${query}${page}`, keyed)
      expect(response.status).toBe(200)
      seen.push(...response.body.data.users.map((user: { position: string }) => user.position))
      cursor = response.body.data.nextCursor
      if (cursor === null) break
    }
    return seen
  })

describe("GET /v2/referrer/{address}/users", () => {
  layer(
    gatewayForTest({
      state: fixture.state,
      initial: liveStatus(3_000),
      cohortEventLog: CohortEventLogStandIn({ bindings: [foreignBinding, aliceBinding] })
    }),
    { excludeTestServices: true }
  )((it) => {
    it.effect("the bound positions by position address, equal to their UserBundleAccounts", () =>
      Effect.gen(function*() {
        const url = yield* serverUrl
        const response = yield* fetchJson(`${url}/v2/referrer/${BUILDER}/users`, keyed)
        expect(response.status).toBe(200)
        expect(response.body.data.nextCursor).toBeNull()
        const expected = [
          ...[ALICE, BOB, CAROL].map((owner) => ({ position: positionOf(owner, USDC_VAULT), owner, vault: USDC_VAULT })),
          { position: positionOf(ALICE, SOL_VAULT), owner: ALICE, vault: SOL_VAULT }
        ].sort((a, b) => (a.position < b.position ? -1 : 1))
        expect(response.body.data.users.map((user: { position: string; user: string; vault: string }) => [user.position, user.user, user.vault]))
          .toEqual(expected.map((entry) => [entry.position, entry.owner, entry.vault]))
        const alice = response.body.data.users.find((user: { position: string }) => user.position === positionOf(ALICE, USDC_VAULT))
        expect(alice).toEqual({
          position: positionOf(ALICE, USDC_VAULT), user: ALICE, vault: USDC_VAULT,
          shares: { raw: "400000000", token: "400" },
          value: { raw: "800000000", token: "800", usd: null },
          netDeposits: { raw: "350000000", token: "350" },
          pendingDeposit: { raw: "1", token: "0.000001" },
          lastDepositAt: NOW - 60,
          firstAttributedAt: NOW - 86_400,
          attributedSlot: 1_234,
          bindTimeRates: { referralPfeeBps: 0, referralMfeeBps: 1_000, referralTierIndex: 0 },
          binding: "recorded"
        })
        const bob = response.body.data.users.find((user: { position: string }) => user.position === positionOf(BOB, USDC_VAULT))
        expect(bob.netDeposits).toEqual({ raw: "-20000000", token: "-20" })
        expect(bob.lastDepositAt).toBeNull()
        // the history is complete and holds no binding for Bob: said so, nothing invented
        expect(bob).toMatchObject({ firstAttributedAt: null, attributedSlot: null, bindTimeRates: null, binding: "not_recorded" })
      }))

    it.effect("pages of every size and the vault filter walk each position exactly once, in order", () =>
      Effect.gen(function*() {
        const url = yield* serverUrl
        const all = yield* walk(url, "", 100)
        expect(all).toHaveLength(4)
        expect([...all].sort()).toEqual(all)
        for (const limit of [1, 2, 3]) expect(yield* walk(url, "", limit)).toEqual(all)
        const usdcOnly = yield* walk(url, `&vault=${USDC_VAULT}`, 2)
        expect(usdcOnly).toEqual(all.filter((position) => position !== positionOf(ALICE, SOL_VAULT)))
      }))

    it.effect("cursors of another filter or referrer, tampered cursors, unknown vaults and bad limits are refused", () =>
      Effect.gen(function*() {
        const url = yield* serverUrl
        const first = yield* fetchJson(`${url}/v2/referrer/${BUILDER}/users?limit=1`, keyed)
        const cursor: string = first.body.data.nextCursor
        for (const path of [
          `/v2/referrer/${BUILDER}/users?vault=${USDC_VAULT}&cursor=${encodeURIComponent(cursor)}`,
          `/v2/referrer/${ALICE}/users?cursor=${encodeURIComponent(cursor)}`,
          `/v2/referrer/${BUILDER}/users?cursor=${encodeURIComponent(`x${cursor}`)}`
        ]) {
          const response = yield* fetchJson(`${url}${path}`, keyed)
          expect(response.status).toBe(400)
          expect(response.body.error).toBe("INVALID_CURSOR")
        }
        const unknown = yield* fetchJson(`${url}/v2/referrer/${BUILDER}/users?vault=${UNKNOWN_VAULT}`, keyed)
        expect(unknown.status).toBe(404)
        expect(unknown.body.error).toBe("VAULT_NOT_FOUND")
        const badVault = yield* fetchJson(`${url}/v2/referrer/${BUILDER}/users?vault=nope`, keyed)
        expect(badVault.status).toBe(400)
        for (const limit of ["0", "101"]) {
          expect((yield* fetchJson(`${url}/v2/referrer/${BUILDER}/users?limit=${limit}`, keyed)).status).toBe(400)
        }
        const none = yield* fetchJson(`${url}/v2/referrer/${NOBODY}/users`, keyed)
        expect(none.status).toBe(200)
        expect(none.body.data).toEqual({ referrer: NOBODY, users: [], nextCursor: null })
      }))

    it.effect("503 while the projection is not live", () =>
      Effect.gen(function*() {
        const url = yield* serverUrl
        const control = yield* ProjectionControl
        yield* control.setStatus(startingStatus)
        const response = yield* fetchJson(`${url}/v2/referrer/${BUILDER}/users`, keyed)
        expect(response.status).toBe(503)
        yield* control.setStatus(liveStatus(3_000))
      }))
  })

  layer(
    gatewayForTest({
      state: fixture.state,
      initial: liveStatus(3_000),
      cohortEventLog: CohortEventLogStandIn({ bindings: [aliceBinding], historyComplete: false })
    }),
    { excludeTestServices: true }
  )((it) => {
    it.effect("while the history backfills, bindings not loaded yet are flagged backfilling, loaded ones are served", () =>
      Effect.gen(function*() {
        const url = yield* serverUrl
        const response = yield* fetchJson(`${url}/v2/referrer/${BUILDER}/users?vault=${USDC_VAULT}`, keyed)
        expect(response.status).toBe(200)
        const byWallet = new Map<string, any>(response.body.data.users.map((user: { user: string }) => [user.user, user]))
        expect(byWallet.get(ALICE)).toMatchObject({ binding: "recorded", firstAttributedAt: NOW - 86_400 })
        for (const wallet of [BOB, CAROL]) {
          expect(byWallet.get(wallet)).toMatchObject({ binding: "backfilling", firstAttributedAt: null, bindTimeRates: null })
        }
      }))
  })
})
