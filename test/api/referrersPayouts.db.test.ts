import { SqlClient } from "@effect/sql"
import { describe, expect, layer } from "@effect/vitest"
import type { Address } from "@solana/kit"
import { Effect, Layer } from "effect"
import { ReferrerPayoutsLive } from "../../layers/postgres/ReferrerPayoutsLive.ts"
import { fetchJson } from "../support/httpFetch.ts"
import { gatewayForTest, serverUrl } from "../../src/bench/support/httpTestServer.ts"
import { TEST_PARTNER_KEY } from "../../src/bench/support/partnerKeyStandIn.ts"
import { liveStatus, ProjectionControl, startingStatus } from "../../src/bench/support/projectionTest.ts"
import { TestDatabase } from "../../src/bench/support/testDatabase.ts"
import { VaultStateFixture } from "../../src/bench/support/vaultStateFixture.ts"
import { putReferrer } from "../../src/bench/support/referrersFixture.ts"

const keyed = { headers: { "x-api-key": TEST_PARTNER_KEY } }
const USDC_VAULT = "J7qhMAKnB6G5dvoAN9281ufabajKbyGQxxd2bq6R7fPJ" as Address
const GONE_VAULT = "nE1x7KQq2sm3GQrafQUUdBkSPPT52FmiMM9qAS1dgnC" as Address
const USDC = "EPjFWdd5AufqSSqeM2qN1xzybapC8G4wEGGkZwyTDt1v" as Address
const BUILDER = "Es9vMFrzaCERmJfrF4H2FYD4KCoNkY11McCe8BenwNYB" as Address
const OTHER = "7vfCXTUXx5WJV5JADk17DUJ4ksgau7utNKj4b963voxs" as Address
const BASE_TIME = 1_800_000_000

const fixture = new VaultStateFixture({ slot: 9_000, blockTime: BASE_TIME + 10_000 }).vault(USDC_VAULT, { bundle: { assetAddress: USDC } })

/** One program transaction carrying the given events, as the ingest writes them (the event's JSON form). */
const insertTransaction = (
  signature: string,
  slot: number,
  events: ReadonlyArray<{ name: string; referrer: Address; vault: Address; shares: bigint; amount: bigint }>
) =>
  Effect.gen(function*() {
    const sql = yield* SqlClient.SqlClient
    const blockTime = BASE_TIME + slot
    yield* sql`INSERT INTO chain_transaction ${sql.insert({ signature, slot, block_time: blockTime, failed: false, event_count: events.length })}`
    for (const [index, event] of events.entries()) {
      const data = {
        referrer: event.referrer, bundleAccountKey: event.vault, sharesRedeemed: event.shares.toString(),
        redemptionAmount: event.amount.toString(), timestamp: String(blockTime - 1), accruedPfeeSharesAfter: "0", accruedMfeeSharesAfter: "0"
      }
      yield* sql`INSERT INTO program_event ${sql.insert({
        signature, event_index: index, slot, block_time: blockTime, name: event.name, raw: new Uint8Array([1]),
        data: JSON.stringify(data), vault: event.vault, wallet: event.referrer
      })}`
    }
  })

const payout = (vault: Address, shares: bigint, amount: bigint, referrer = BUILDER) =>
  ({ name: "ReferrerWithdrawalProcessed", referrer, vault, shares, amount })

const walk = (url: string, limit: number) =>
  Effect.gen(function*() {
    const seen: Array<{ signature: string; slot: number }> = []
    let cursor: string | null = null
    for (let pages = 0; pages < 20; pages++) {
      const query: string = cursor === null ? `limit=${limit}` : `limit=${limit}&cursor=${encodeURIComponent(cursor)}`
      const response = yield* fetchJson(`${url}/v2/referrer/${BUILDER}/payouts?${query}`, keyed)
      expect(response.status).toBe(200)
      expect(response.body.data.payouts.length).toBeLessThanOrEqual(limit)
      seen.push(...response.body.data.payouts.map((row: { signature: string; slot: number }) => ({ signature: row.signature, slot: row.slot })))
      cursor = response.body.data.nextCursor
      if (cursor === null) break
    }
    return seen
  })

describe("GET /v2/referrer/{address}/payouts over the event log", () => {
  const gateway = gatewayForTest({ state: fixture.state, initial: liveStatus(9_000), referrerPayouts: ReferrerPayoutsLive })
  layer(gateway.pipe(Layer.provideMerge(TestDatabase)), { timeout: 60_000, excludeTestServices: true })((it) => {
    it.effect("settled claims newest first, with signature, vault, shares, amount and settlement time; requested claims and other builders excluded", () =>
      Effect.gen(function*() {
        yield* insertTransaction("sigA", 100, [payout(USDC_VAULT, 1_000_000n, 2_000_000n)])
        yield* insertTransaction("sigB", 200, [payout(GONE_VAULT, 5n, 7n), payout(USDC_VAULT, 3_000_000n, 6_500_000n)])
        yield* insertTransaction("sigC", 200, [payout(USDC_VAULT, 10n, 20n, OTHER)])
        yield* insertTransaction("sigD", 300, [{ name: "ReferrerWithdrawalRequested", referrer: BUILDER, vault: USDC_VAULT, shares: 9n, amount: 9n }])
        yield* insertTransaction("sigE", 400, [payout(USDC_VAULT, 4_000_000n, 8_000_001n)])
        const url = yield* serverUrl
        const response = yield* fetchJson(`${url}/v2/referrer/${BUILDER}/payouts`, keyed)
        expect(response.status).toBe(200)
        expect(response.body.asOf).toEqual({ slot: 9_000, blockTime: BASE_TIME + 10_000 })
        expect(response.body.data.nextCursor).toBeNull()
        expect(response.body.data.payouts).toEqual([
          {
            signature: "sigE", vault: USDC_VAULT, slot: 400, settledAt: BASE_TIME + 400,
            asset: { mint: USDC, symbol: "USDC", decimals: 6 },
            sharesRedeemed: "4000000", amount: "8000001", value: { raw: "8000001", token: "8.000001", usd: null }
          },
          {
            signature: "sigB", vault: USDC_VAULT, slot: 200, settledAt: BASE_TIME + 200,
            asset: { mint: USDC, symbol: "USDC", decimals: 6 },
            sharesRedeemed: "3000000", amount: "6500000", value: { raw: "6500000", token: "6.5", usd: null }
          },
          {
            signature: "sigB", vault: GONE_VAULT, slot: 200, settledAt: BASE_TIME + 200,
            asset: null, sharesRedeemed: "5", amount: "7", value: null
          },
          {
            signature: "sigA", vault: USDC_VAULT, slot: 100, settledAt: BASE_TIME + 100,
            asset: { mint: USDC, symbol: "USDC", decimals: 6 },
            sharesRedeemed: "1000000", amount: "2000000", value: { raw: "2000000", token: "2", usd: null }
          }
        ])
        const other = yield* fetchJson(`${url}/v2/referrer/${OTHER}/payouts`, keyed)
        expect(other.body.data.payouts.map((row: { signature: string }) => row.signature)).toEqual(["sigC"])
      }))

    it.effect("pages of every size walk every payout exactly once; a payout settling mid-walk does not shift older pages", () =>
      Effect.gen(function*() {
        const url = yield* serverUrl
        const all = yield* walk(url, 100)
        for (const limit of [1, 2, 3]) expect(yield* walk(url, limit)).toEqual(all)
        const first = yield* fetchJson(`${url}/v2/referrer/${BUILDER}/payouts?limit=2`, keyed)
        yield* insertTransaction("sigF", 500, [payout(USDC_VAULT, 1n, 1n)])
        const rest = yield* fetchJson(`${url}/v2/referrer/${BUILDER}/payouts?limit=100&cursor=${encodeURIComponent(first.body.data.nextCursor)}`, keyed)
        const walked = [...first.body.data.payouts, ...rest.body.data.payouts].map((row: { signature: string; vault: string }) => `${row.signature}/${row.vault}`)
        expect(walked).toEqual(all.map((row, index) => `${row.signature}/${index === 2 ? GONE_VAULT : USDC_VAULT}`))
        expect(rest.body.data.nextCursor).toBeNull()
        const fresh = yield* walk(url, 2)
        expect(fresh[0]).toEqual({ signature: "sigF", slot: 500 })
      }))

    it.effect("tampered, foreign and malformed cursors are 400 INVALID_CURSOR; limit outside 1-100 is 400", () =>
      Effect.gen(function*() {
        const url = yield* serverUrl
        const first = yield* fetchJson(`${url}/v2/referrer/${BUILDER}/payouts?limit=1`, keyed)
        const cursor: string = first.body.data.nextCursor
        const [body, mac] = cursor.split(".") as [string, string]
        const forged = Buffer.from(JSON.stringify([JSON.stringify(["payouts", BUILDER]), JSON.stringify([1, "x", 0])])).toString("base64url")
        const tampered = [
          `${body}.${mac.slice(0, -2)}${mac.endsWith("AA") ? "BB" : "AA"}`,
          `${forged}.${mac}`,
          "not-a-cursor",
          `${body}.${mac}.extra`
        ]
        for (const bad of tampered) {
          const response = yield* fetchJson(`${url}/v2/referrer/${BUILDER}/payouts?cursor=${encodeURIComponent(bad)}`, keyed)
          expect(response.status).toBe(400)
          expect(response.body.error).toBe("INVALID_CURSOR")
        }
        const foreign = yield* fetchJson(`${url}/v2/referrer/${OTHER}/payouts?cursor=${encodeURIComponent(cursor)}`, keyed)
        expect(foreign.status).toBe(400)
        expect(foreign.body.error).toBe("INVALID_CURSOR")
        for (const limit of ["0", "101", "abc", "1.5"]) {
          const response = yield* fetchJson(`${url}/v2/referrer/${BUILDER}/payouts?limit=${limit}`, keyed)
          expect(response.status).toBe(400)
        }
        const badAddress = yield* fetchJson(`${url}/v2/referrer/xyz/payouts`, keyed)
        expect(badAddress.status).toBe(400)
        expect(badAddress.body.error).toBe("INVALID_ADDRESS")
      }))

    it.effect("claim lifecycle: requested -> pendingWithdrawal and no payout; settled -> payout with its signature, pendingWithdrawal cleared", () =>
      Effect.gen(function*() {
        const url = yield* serverUrl
        const claimant = "9xQeWvG816bUx9EPjHmaT23yvVM2ZWbrrpZb9PusVFin" as Address
        const summaryGroup = Effect.map(fetchJson(`${url}/v2/referrer/${claimant}/summary`, keyed), (response) => response.body.data.vaults[0])
        const payoutSignatures = Effect.map(
          fetchJson(`${url}/v2/referrer/${claimant}/payouts`, keyed),
          (response) => response.body.data.payouts.map((row: { signature: string }) => row.signature)
        )
        // The claim request moves the accrued shares into the pending claim (referrer_request_withdraw).
        putReferrer(fixture.state, USDC_VAULT, claimant, {
          pendingWithdrawShares: 1_500_000n, estimatedPendingWithdrawalValue: 3_000_000n, withdrawalAvailableTimestamp: BigInt(BASE_TIME + 20_000)
        })
        const requested = yield* summaryGroup
        expect(requested.pendingWithdrawal).toEqual({
          shares: { raw: "1500000", token: "1.5" }, estimatedValue: { raw: "3000000", token: "3", usd: null }, estimatedAvailableAt: BASE_TIME + 20_000
        })
        expect(yield* payoutSignatures).toEqual([])
        // The keeper settles it: the account's pending claim is cleared and the event is logged.
        putReferrer(fixture.state, USDC_VAULT, claimant, { lastWithdrawalProcessTimestamp: BigInt(BASE_TIME + 20_001) })
        yield* insertTransaction("settleSig", 600, [payout(USDC_VAULT, 1_500_000n, 3_000_000n, claimant)])
        const settled = yield* summaryGroup
        expect(settled.pendingWithdrawal).toBeNull()
        expect(yield* payoutSignatures).toEqual(["settleSig"])
      }))

    it.effect("503 while the projection is not live, never an empty list", () =>
      Effect.gen(function*() {
        const url = yield* serverUrl
        const control = yield* ProjectionControl
        yield* control.setStatus(startingStatus)
        const response = yield* fetchJson(`${url}/v2/referrer/${BUILDER}/payouts`, keyed)
        expect(response.status).toBe(503)
        expect(response.headers.get("retry-after")).toBe("5")
        yield* control.setStatus(liveStatus(9_000))
      }))
  })
})
