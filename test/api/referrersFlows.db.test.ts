import { SqlClient } from "@effect/sql"
import { describe, expect, layer } from "@effect/vitest"
import type { Address } from "@solana/kit"
import { Effect, Layer } from "effect"
import { CohortEventLogLive } from "../../layers/postgres/CohortEventLogLive.ts"
import { appendTransactions } from "../../layers/postgres/eventLogSql.ts"
import { PgPool } from "../../layers/postgres/pgPool.ts"
import { encodeEvent, type NtEvent } from "../../src/ntbundle/events.ts"
import { ReferrerPayoutsLive } from "../../layers/postgres/ReferrerPayoutsLive.ts"
import { fetchJson } from "../support/httpFetch.ts"
import { gatewayForTest, serverUrl } from "../../src/bench/support/httpTestServer.ts"
import { TEST_PARTNER_KEY } from "../../src/bench/support/partnerKeyStandIn.ts"
import { liveStatus, ProjectionControl, startingStatus } from "../../src/bench/support/projectionTest.ts"
import { TestDatabase } from "../../src/bench/support/testDatabase.ts"
import { VaultStateFixture } from "../../src/bench/support/vaultStateFixture.ts"

const keyed = { headers: { "x-api-key": TEST_PARTNER_KEY } }
const USDC_VAULT = "J7qhMAKnB6G5dvoAN9281ufabajKbyGQxxd2bq6R7fPJ" as Address
const GONE_VAULT = "nE1x7KQq2sm3GQrafQUUdBkSPPT52FmiMM9qAS1dgnC" as Address
const USDC = "EPjFWdd5AufqSSqeM2qN1xzybapC8G4wEGGkZwyTDt1v" as Address
const BUILDER = "Es9vMFrzaCERmJfrF4H2FYD4KCoNkY11McCe8BenwNYB" as Address
const OTHER = "7vfCXTUXx5WJV5JADk17DUJ4ksgau7utNKj4b963voxs" as Address
const ALICE = "3NZ9JMVBmGAqocybic2c7LQCJScmgsAZ6vQqTDzcqmJh" as Address
const BOB = "9xQeWvG816bUx9EPjHmaT23yvVM2ZWbrrpZb9PusVFin" as Address
const CAROL = "4k3Dyjzvzp8eMZWUXbBCjEvwSkkk59S5iCNLY3QrkX6R" as Address
const TOKEN_ACCOUNT = "6sbzC1eH4FTujJXWj51eQe25cYvr4xfXbJ1vAj7j2k5J" as Address
/** 2027-01-15T00:00:00Z */
const DAY = 1_800_000_000 - (1_800_000_000 % 86_400)
const DAY_DATE = new Date(DAY * 1000).toISOString().slice(0, 10)
const NEXT_DATE = new Date((DAY + 86_400) * 1000).toISOString().slice(0, 10)

const fixture = new VaultStateFixture({ slot: 9_000, blockTime: DAY + 200_000 }).vault(USDC_VAULT, { bundle: { assetAddress: USDC } })

interface Event {
  readonly name: string
  readonly wallet: Address
  readonly vault: Address
  readonly data: Record<string, string | number | boolean | null>
}

/** One program transaction with its events in the event log's shape (the JSON form the ingest writes). */
const insertTransaction = (signature: string, slot: number, blockTime: number | null, events: ReadonlyArray<Event>) =>
  Effect.gen(function*() {
    const sql = yield* SqlClient.SqlClient
    yield* sql`INSERT INTO chain_transaction ${sql.insert({ signature, slot, block_time: blockTime, failed: false, event_count: events.length })}`
    for (const [index, event] of events.entries()) {
      const data = { user: event.wallet, bundleAccountKey: event.vault, timestamp: String((blockTime ?? DAY) - 3), ...event.data }
      yield* sql`INSERT INTO program_event ${sql.insert({
        signature, event_index: index, slot, block_time: blockTime, name: event.name, raw: new Uint8Array([1]),
        data: JSON.stringify(data), vault: event.vault, wallet: event.wallet
      })}`
    }
  })

const bind = (wallet: Address, vault: Address, referrer: Address): Event => ({
  name: "UserReferrerSet", wallet, vault,
  data: { referrer, referralPfeeBps: 0, referralMfeeBps: 1000, referralTierIndex: null }
})
const deposit = (wallet: Address, vault: Address, gross: bigint): Event => ({
  name: "DepositRequested", wallet, vault,
  data: { amount: gross.toString(), grossAmount: gross.toString(), feeAmount: "0", netAmount: gross.toString(), toppingUp: false, assetMint: USDC }
})
const withdrawal = (wallet: Address, vault: Address, shares: bigint, estimate: bigint): Event => ({
  name: "WithdrawalRequested", wallet, vault,
  data: { amount: shares.toString(), estimatedPendingWithdrawalValue: estimate.toString(), cooldownPeriod: "60", cooldownEndTimestamp: "0", estimatedNetAmount: estimate.toString() }
})
const refund = (wallet: Address, vault: Address, amount: bigint): Event => ({
  name: "RefundedDeposit", wallet, vault, data: { amount: amount.toString(), referredNetDepositsAfter: null }
})

const finishBackfill = Effect.flatMap(SqlClient.SqlClient, (sql) =>
  sql`INSERT INTO history_backfill (id, done_count, finished) VALUES (1, 0, true) ON CONFLICT (id) DO UPDATE SET finished = true`)

const flowsUrl = (url: string, query: string, referrer: Address = BUILDER) => `${url}/v2/referrer/${referrer}/flows?${query}`

const walk = (url: string, query: string, limit: number) =>
  Effect.gen(function*() {
    const seen: Array<string> = []
    let cursor: string | null = null
    for (let pages = 0; pages < 30; pages++) {
      const next: string = cursor === null ? "" : `&cursor=${encodeURIComponent(cursor)}`
      const response = yield* fetchJson(flowsUrl(url, `limit=${limit}${query}${next}`), keyed)
      expect(response.status).toBe(200)
      expect(response.body.data.flows.length).toBeLessThanOrEqual(limit)
      seen.push(...response.body.data.flows.map((row: { signature: string; eventIndex: number }) => `${row.signature}#${row.eventIndex}`))
      cursor = response.body.data.nextCursor
      if (cursor === null) break
    }
    return seen
  })

describe("GET /v2/referrer/{address}/flows over the event log", () => {
  const gateway = gatewayForTest({
    state: fixture.state,
    initial: liveStatus(9_000),
    referrerPayouts: ReferrerPayoutsLive,
    cohortEventLog: CohortEventLogLive
  })
  layer(gateway.pipe(Layer.provideMerge(TestDatabase)), { timeout: 60_000, excludeTestServices: true })((it) => {
    it.effect("503 with Retry-After until the history backfill has finished, never an empty list", () =>
      Effect.gen(function*() {
        const url = yield* serverUrl
        yield* insertTransaction("bindA", 10, DAY + 10, [bind(ALICE, USDC_VAULT, BUILDER), deposit(ALICE, USDC_VAULT, 5_000_000n)])
        const response = yield* fetchJson(flowsUrl(url, ""), keyed)
        expect(response.status).toBe(503)
        expect(response.body.error).toBe("PROJECTION_UNAVAILABLE")
        expect(response.headers.get("retry-after")).toBe("10")
        yield* finishBackfill
        const ready = yield* fetchJson(flowsUrl(url, ""), keyed)
        expect(ready.status).toBe(200)
        expect(ready.body.data.flows).toHaveLength(1)
      }))

    it.effect("the cohort's deposit and withdrawal requests and refunds, newest first; other builders' and unbound users' flows excluded", () =>
      Effect.gen(function*() {
        const url = yield* serverUrl
        yield* insertTransaction("bindB", 20, DAY + 20, [bind(BOB, USDC_VAULT, OTHER), deposit(BOB, USDC_VAULT, 7n)])
        yield* insertTransaction("bindC", 30, DAY + 30, [bind(CAROL, GONE_VAULT, BUILDER), deposit(CAROL, GONE_VAULT, 9n)])
        yield* insertTransaction("unbound", 40, DAY + 40, [deposit(CAROL, USDC_VAULT, 11n)])
        yield* insertTransaction("wdA", 50, DAY + 86_399, [withdrawal(ALICE, USDC_VAULT, 2_000_000n, 2_500_000n)])
        yield* insertTransaction("refundA", 60, DAY + 86_400, [refund(ALICE, USDC_VAULT, 1_000_000n)])
        const response = yield* fetchJson(flowsUrl(url, ""), keyed)
        expect(response.status).toBe(200)
        expect(response.body.asOf).toEqual({ slot: 9_000, blockTime: DAY + 200_000 })
        expect(response.body.data.nextCursor).toBeNull()
        expect(response.body.data.flows).toEqual([
          {
            signature: "refundA", eventIndex: 0, user: ALICE, vault: USDC_VAULT, kind: "refund", stage: "processed",
            amount: { raw: "1000000", token: "1", usd: null }, estimated: false, shares: null, slot: 60, time: DAY + 86_400
          },
          {
            signature: "wdA", eventIndex: 0, user: ALICE, vault: USDC_VAULT, kind: "withdrawal", stage: "requested",
            amount: { raw: "2500000", token: "2.5", usd: null }, estimated: true, shares: "2000000", slot: 50, time: DAY + 86_399
          },
          {
            signature: "bindC", eventIndex: 1, user: CAROL, vault: GONE_VAULT, kind: "deposit", stage: "requested",
            amount: null, estimated: false, shares: null, slot: 30, time: DAY + 30
          },
          {
            signature: "bindA", eventIndex: 1, user: ALICE, vault: USDC_VAULT, kind: "deposit", stage: "requested",
            amount: { raw: "5000000", token: "5", usd: null }, estimated: false, shares: null, slot: 10, time: DAY + 10
          }
        ])
        const other = yield* fetchJson(flowsUrl(url, "", OTHER), keyed)
        expect(other.body.data.flows.map((row: { signature: string }) => row.signature)).toEqual(["bindB"])
        const nobody = yield* fetchJson(flowsUrl(url, "", BOB), keyed)
        expect(nobody.body.data).toEqual({ referrer: BOB, flows: [], nextCursor: null })
      }))

    it.effect("startDate/endDate are inclusive UTC days by block time; malformed or reversed ranges are 400", () =>
      Effect.gen(function*() {
        const url = yield* serverUrl
        const signatures = (query: string) =>
          Effect.map(fetchJson(flowsUrl(url, query), keyed), (response) => response.body.data.flows.map((row: { signature: string }) => row.signature))
        expect(yield* signatures(`startDate=${DAY_DATE}&endDate=${DAY_DATE}`)).toEqual(["wdA", "bindC", "bindA"])
        expect(yield* signatures(`startDate=${NEXT_DATE}`)).toEqual(["refundA"])
        expect(yield* signatures(`endDate=${DAY_DATE}`)).toEqual(["wdA", "bindC", "bindA"])
        expect(yield* signatures(`startDate=${NEXT_DATE}&endDate=${NEXT_DATE}`)).toEqual(["refundA"])
        for (const query of [`startDate=${NEXT_DATE}&endDate=${DAY_DATE}`, "startDate=2027-02-30", "endDate=15-01-2027", "startDate=yesterday"]) {
          const response = yield* fetchJson(flowsUrl(url, query), keyed)
          expect(response.status).toBe(400)
          expect(response.body.success).toBe(false)
          expect(response.body.error).toBe("INVALID_QUERY")
        }
      }))

    it.effect("pages of every size walk each flow once, in order; rows arriving mid-walk do not shift later pages", () =>
      Effect.gen(function*() {
        const url = yield* serverUrl
        for (let i = 0; i < 6; i++) {
          yield* insertTransaction(`more${i}`, 70 + i, DAY + 90_000 + i, [deposit(ALICE, USDC_VAULT, BigInt(i + 1)), refund(ALICE, USDC_VAULT, 1n)])
        }
        const all = yield* walk(url, "", 100)
        expect(all).toHaveLength(16)
        expect(all.slice(0, 2)).toEqual(["more5#1", "more5#0"])
        for (const limit of [1, 3, 7]) expect(yield* walk(url, "", limit)).toEqual(all)
        const windowed = yield* walk(url, `&startDate=${NEXT_DATE}`, 4)
        expect(windowed).toEqual(all.filter((row) => row.startsWith("more") || row.startsWith("refundA")))

        const first = yield* fetchJson(flowsUrl(url, "limit=5"), keyed)
        yield* insertTransaction("late", 900, DAY + 150_000, [deposit(ALICE, USDC_VAULT, 1n)])
        const rest = yield* walk(url, `&cursor=${encodeURIComponent(first.body.data.nextCursor)}`, 100)
        const walked = [...first.body.data.flows.map((row: { signature: string; eventIndex: number }) => `${row.signature}#${row.eventIndex}`), ...rest]
        expect(walked).toEqual(all)
        expect((yield* walk(url, "", 2))[0]).toBe("late#0")
      }))

    it.effect("tampered, foreign and other-window cursors are 400 INVALID_CURSOR; limit outside 1-100 is 400", () =>
      Effect.gen(function*() {
        const url = yield* serverUrl
        const first = yield* fetchJson(flowsUrl(url, "limit=1"), keyed)
        const cursor: string = first.body.data.nextCursor
        const [body, mac] = cursor.split(".") as [string, string]
        const forged = Buffer.from(JSON.stringify([JSON.stringify(["flows", BUILDER, null, null]), JSON.stringify([1, "x", 0])])).toString("base64url")
        for (const bad of [`${body}.${mac.slice(0, -2)}${mac.endsWith("AA") ? "BB" : "AA"}`, `${forged}.${mac}`, "not-a-cursor", `${body}.${mac}.x`]) {
          const response = yield* fetchJson(flowsUrl(url, `cursor=${encodeURIComponent(bad)}`), keyed)
          expect(response.status).toBe(400)
          expect(response.body.error).toBe("INVALID_CURSOR")
        }
        for (const [query, referrer] of [[`cursor=${encodeURIComponent(cursor)}`, OTHER], [`startDate=${DAY_DATE}&cursor=${encodeURIComponent(cursor)}`, BUILDER]] as const) {
          const response = yield* fetchJson(flowsUrl(url, query, referrer), keyed)
          expect(response.status).toBe(400)
          expect(response.body.error).toBe("INVALID_CURSOR")
        }
        for (const limit of ["0", "101", "x"]) expect((yield* fetchJson(flowsUrl(url, `limit=${limit}`), keyed)).status).toBe(400)
        const badAddress = yield* fetchJson(`${url}/v2/referrer/nope/flows`, keyed)
        expect(badAddress.status).toBe(400)
        expect(badAddress.body.error).toBe("INVALID_ADDRESS")
      }))

    it.effect("503 while the projection is not live", () =>
      Effect.gen(function*() {
        const url = yield* serverUrl
        const control = yield* ProjectionControl
        yield* control.setStatus(startingStatus)
        const response = yield* fetchJson(flowsUrl(url, ""), keyed)
        expect(response.status).toBe(503)
        expect(response.headers.get("retry-after")).toBe("5")
        yield* control.setStatus(liveStatus(9_000))
      }))

    it.effect("keeper processing is listed: Allocated (gross deposit) and Redeemed (gross redemption), by the owner of the emitting instruction", () =>
      Effect.gen(function*() {
        const url = yield* serverUrl
        const sql = yield* SqlClient.SqlClient
        const processed = (amount: bigint): NtEvent => ({
          name: "Allocated",
          data: {
            from: TOKEN_ACCOUNT, to: TOKEN_ACCOUNT, amount, timestamp: BigInt(DAY), bundleAccountKey: USDC_VAULT, netAmount: amount / 2n,
            sharePrice: 1n, userSharesBefore: 0n, userSharesAfter: 1n, totalShares: 1n, referredNetDepositsAfter: null
          }
        })
        const redeemed: NtEvent = {
          name: "Redeemed",
          data: {
            from: TOKEN_ACCOUNT, to: TOKEN_ACCOUNT, netAmount: 3_900_000n, feeAmount: 100_000n, timestamp: BigInt(DAY), bundleAccountKey: USDC_VAULT,
            grossAmount: 4_000_000n, sharePrice: 1n, userSharesBefore: 2n, userSharesAfter: 0n, totalSharesBefore: 2n, totalSharesAfter: 0n,
            referredNetDepositsAfter: null
          }
        }
        const line = (index: number, event: NtEvent, user?: string) => ({ index, raw: encodeEvent(event), event, ...(user === undefined ? {} : { user }) })
        yield* appendTransactions(yield* PgPool, [{
          _tag: "ProgramEvents", signature: "keeper", slot: 2_000, blockTime: DAY + 180_000, failed: false, writableAccounts: [],
          // Alice's deposit and withdrawal processed, Bob's (another builder) deposit, and one whose instruction named no owner.
          events: [line(0, processed(5_000_000n), ALICE), line(1, processed(7n), BOB), line(2, redeemed, ALICE), line(3, processed(9n))]
        }])
        const stored = yield* sql<{ event_index: number; wallet: string | null }>`SELECT event_index, wallet FROM program_event WHERE signature = 'keeper' ORDER BY event_index`
        expect(stored.map((row) => row.wallet)).toEqual([ALICE, BOB, ALICE, null])
        const response = yield* fetchJson(flowsUrl(url, "limit=2"), keyed)
        expect(response.body.data.flows).toEqual([
          {
            signature: "keeper", eventIndex: 2, user: ALICE, vault: USDC_VAULT, kind: "withdrawal", stage: "processed",
            amount: { raw: "4000000", token: "4", usd: null }, estimated: false, shares: null, slot: 2_000, time: DAY + 180_000
          },
          {
            signature: "keeper", eventIndex: 0, user: ALICE, vault: USDC_VAULT, kind: "deposit", stage: "processed",
            amount: { raw: "5000000", token: "5", usd: null }, estimated: false, shares: null, slot: 2_000, time: DAY + 180_000
          }
        ])
        const next = yield* fetchJson(flowsUrl(url, `limit=1&cursor=${encodeURIComponent(response.body.data.nextCursor)}`), keyed)
        expect(next.body.data.flows[0].signature).toBe("late")
        const other = yield* fetchJson(flowsUrl(url, "limit=1", OTHER), keyed)
        expect(other.body.data.flows[0]).toMatchObject({ signature: "keeper", eventIndex: 1, user: BOB, kind: "deposit", stage: "processed" })
      }))
  })
})
