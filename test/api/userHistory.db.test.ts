import { HttpApi } from "@effect/platform"
import { describe, expect, it } from "@effect/vitest"
import type { Address } from "@solana/kit"
import { Context, Duration, Effect, Layer } from "effect"
import { NoPricesLive } from "../../layers/memory/PricesLive.ts"
import { DailyRollupLive } from "../../layers/postgres/DailyRollupLive.ts"
import { ReferrerHistoryLive } from "../../layers/postgres/ReferrerHistoryLive.ts"
import { UserActivityLive } from "../../layers/postgres/UserActivityLive.ts"
import { VaultHistoryLive } from "../../layers/postgres/VaultHistoryLive.ts"
import { ApiRoutesLive } from "../../layers/uws/ApiRoutes.ts"
import { HttpListener } from "../../layers/uws/HttpServer.ts"
import { BadRequestResponse, InternalErrorResponse } from "../../src/api/errors.ts"
import { UsersApi } from "../../src/api/users/UsersApi.ts"
import { UsersHandlersLive } from "../../src/api/users/UsersHandlers.ts"
import { addUtcDays, utcDayEnd, utcDayOf } from "../../src/domain/history/utcDay.ts"
import { eventsFromLogs, type NtEvent } from "../../src/ntbundle/events.ts"
import { applyFeesToUserIx, netPendingTransactionsIx, processDepositIx, processWithdrawalIx, refundDepositIx, updateOracleIx } from "../../src/ntbundle/ix/keeper.ts"
import { NTBUNDLE_PROGRAM_ID } from "../../src/ntbundle/programs.ts"
import type { SendOutcome } from "../../src/sandbox/runtime/processor.ts"
import { fromKitInstructions } from "../../src/sandbox/ntbundle/kitInstruction.ts"
import { listenForTest } from "../../src/bench/support/httpTestServer.ts"
import { PartnerKeyStandIn, TEST_PARTNER_KEY } from "../../src/bench/support/partnerKeyStandIn.ts"
import { fetchJson } from "../support/httpFetch.ts"
import { liveIngestion, scenarioSandbox } from "../support/ingestHarness.ts"

const UsersOnlyApi = HttpApi.make("vault-gateway").add(UsersApi).addError(BadRequestResponse).addError(InternalErrorResponse)
const keyed = { headers: { "x-api-key": TEST_PARTNER_KEY } }

const VAULT_ID = 76
// One vault; the keeper runs only when the test sends its instructions; deposit, withdrawal and
// management fees; a short cooldown; no oracle age check.
const scenario = {
  seed: 61, users: 6, builders: 1, activity: 0, keeperIntervalSlots: 10_000_000, vaultIds: [VAULT_ID],
  configureVault: (config: any) => ({
    ...config,
    depositFeeBps: 50,
    withdrawalFeeBps: 30,
    managementFeeBps: 200,
    withdrawalDelaySeconds: 0n,
    withdrawalTMinSeconds: 20n,
    withdrawalTMaxSeconds: 40n,
    oracleMaxAgeSeconds: 0n
  })
}

/** A program event the chain emitted, with where it stands. */
interface Emitted {
  readonly signature: string
  readonly index: number
  readonly blockTime: number
  readonly event: NtEvent
}

const DAY_MS = 86_400_000

describe("user activity, position history and earnings against the sandbox chain", () => {
  it.live("the feed lists every user event once; the last closed day is the position at its close; earnings are the chain's value change less flows", () =>
    Effect.gen(function*() {
      const sandbox = yield* scenarioSandbox(scenario)
      const { chain, actions, keeper } = sandbox.scenario
      const { ingest } = yield* liveIngestion(sandbox)
      const sources = yield* Layer.build(
        Layer.mergeAll(
          DailyRollupLive({ interval: Duration.millis(100), provisionalEvery: Duration.zero }),
          ReferrerHistoryLive,
          VaultHistoryLive,
          UserActivityLive,
          NoPricesLive
        ).pipe(Layer.provide(Layer.succeedContext(ingest)))
      )
      const routes = ApiRoutesLive(UsersOnlyApi).pipe(
        Layer.provide(Layer.merge(UsersHandlersLive, PartnerKeyStandIn)),
        Layer.provide(Layer.succeedContext(sources))
      )
      const server = yield* Layer.build(listenForTest(routes).pipe(Layer.provide(Layer.succeedContext(ingest))))
      const url = Context.get(server, HttpListener).url

      const V = sandbox.scenario.vaults[0]!.config.address as Address
      const vault = () => actions.vault(V)!
      const mint = vault().bundle.assetAddress as Address
      const unit = 10n ** BigInt(vault().bundle.assetDecimals)
      const [alice, bob] = sandbox.scenario.people.users.filter((person) => actions.position(person.keypair.address, V) === null)
      const A = alice!.keypair.address
      const B = bob!.keypair.address
      const target = { program: NTBUNDLE_PROGRAM_ID, bundle: V, keeper: keeper.address as Address, assetMint: mint }
      const emitted: Array<Emitted> = []
      const record = (outcome: SendOutcome | undefined) => {
        if (outcome?.kind !== "landed" || outcome.record.err !== null) throw new Error(`transaction did not land: ${JSON.stringify(outcome?.kind)}`)
        const blockTime = Math.floor(chain.ledger.clock.unixMs() / 1000)
        for (const { index, event } of eventsFromLogs(outcome.record.logs, NTBUNDLE_PROGRAM_ID)) {
          emitted.push({ signature: outcome.signature, index, blockTime: outcome.record.blockTime ?? blockTime, event })
        }
        chain.step(1)
      }
      const keeperSend = (instruction: Parameters<typeof fromKitInstructions>[0][number]) =>
        record(chain.submit({ feePayer: keeper, instructions: fromKitInstructions([instruction]) }))
      const nextDay = () => chain.step(1, DAY_MS)

      // Day 1: Alice's deposit is processed, Bob's refunded.
      for (const person of [alice!, bob!]) chain.airdropTokens(person.keypair.address, mint, 1_000n * unit)
      record(actions.deposit(alice!.keypair, vault(), 100n * unit))
      record(actions.deposit(bob!.keypair, vault(), 20n * unit))
      keeperSend(netPendingTransactionsIx(target))
      keeperSend(processDepositIx({ ...target, owner: A as Address }))
      keeperSend(refundDepositIx({ ...target, owner: B as Address }))
      const day1 = utcDayOf(Math.floor(chain.ledger.clock.unixMs() / 1000))
      // Day 2: the vault gains, Alice is charged fees and asks for part of her shares.
      nextDay()
      const oracle = vault().oracle!
      const equity = vault().bundle.bundleUnderlyingBalance + oracle.averageExternalEquity
      keeperSend(updateOracleIx({ ...target, newEquity: oracle.averageExternalEquity + equity / 50n }))
      keeperSend(applyFeesToUserIx({ ...target, owner: A as Address }))
      record(actions.withdraw(alice!.keypair, vault(), { amount: 30n * unit }))
      // Day 3: the withdrawal is paid, Alice deposits again.
      nextDay()
      keeperSend(processWithdrawalIx({ ...target, owner: A as Address, treasury: vault().bundle.treasuryAccount as Address }))
      record(actions.deposit(alice!.keypair, vault(), 10n * unit))
      keeperSend(netPendingTransactionsIx(target))
      keeperSend(processDepositIx({ ...target, owner: A as Address }))
      const day3 = utcDayOf(Math.floor(chain.ledger.clock.unixMs() / 1000))
      expect(day3).toBe(addUtcDays(day1, 2))
      const truth = actions.position(A, V)!
      // Into day 4, so that day 3 closes.
      chain.step(1, Math.max(1_000, (utcDayEnd(day3) + 60) * 1000 - chain.ledger.clock.unixMs()))

      /** A 200 once the gateway has caught up (503 while the log or the day's rows are being stored). */
      const get = (path: string) =>
        Effect.gen(function*() {
          let last: unknown = null
          for (let i = 0; i < 400; i++) {
            const response = yield* fetchJson(`${url}${path}`, keyed)
            if (response.status === 200) return response.body
            last = response.body
            expect(response.status, JSON.stringify(response.body)).toBe(503)
            chain.step(1)
            yield* Effect.sleep(Duration.millis(30))
          }
          return yield* Effect.dieMessage(`${path} never answered 200: ${JSON.stringify(last)}`)
        })
      const walk = (path: string, key: string) =>
        Effect.gen(function*() {
          const rows: Array<any> = []
          let cursor: string | null = null
          do {
            const body: any = yield* get(`${path}${cursor === null ? "" : `&cursor=${encodeURIComponent(cursor)}`}`)
            rows.push(...body.data[key])
            cursor = body.data.nextCursor
          } while (cursor !== null)
          return rows
        })

      // 1. The feed: every user event of the chain once, newest first, two a page; the log must hold them all first.
      const expected = (wallet: string) => {
        const own = emitted.filter(({ event }) =>
          ["DepositRequested", "RefundedDeposit", "WithdrawalRequested", "ChargedFeesToUser"].includes(event.name)
            ? (event.data as any).user === wallet
            : ["Allocated", "Redeemed"].includes(event.name) && wallet === A)
        return own.map(({ signature, index }) => `${signature}:${index}`).reverse()
      }
      let feed: Array<any> = []
      for (let i = 0; i < 200; i++) {
        feed = yield* walk(`/v2/user/${A}/activity?limit=2`, "activity")
        if (feed.length === expected(A).length) break
        chain.step(1)
        yield* Effect.sleep(Duration.millis(50))
      }
      const keys = feed.map((entry) => `${entry.signature}:${entry.eventIndex}`)
      expect(new Set(keys).size).toBe(keys.length)
      expect([...keys].sort()).toEqual([...expected(A)].sort())
      const slots = feed.map((entry) => entry.slot)
      expect(slots).toEqual([...slots].sort((a, b) => b - a))
      expect(feed.map((entry) => entry.type).sort()).toEqual(
        ["depositRequested", "depositRequested", "depositProcessed", "depositProcessed", "feesCharged", "withdrawalRequested", "withdrawalProcessed"].sort()
      )
      const redeemed = emitted.find(({ event }) => event.name === "Redeemed")!.event as Extract<NtEvent, { name: "Redeemed" }>
      expect(feed.find((entry) => entry.type === "withdrawalProcessed").amounts).toMatchObject({
        gross: { raw: redeemed.data.grossAmount.toString() },
        fee: { raw: redeemed.data.feeAmount.toString() },
        net: { raw: redeemed.data.netAmount.toString() }
      })
      const bobFeed = yield* walk(`/v2/vault/${V}/user/${B}/activity?limit=100`, "activity")
      expect(bobFeed.map((entry: any) => entry.type)).toEqual(["depositRefunded", "depositRequested"])
      expect(bobFeed.map((entry: any) => `${entry.signature}:${entry.eventIndex}`).sort()).toEqual([...expected(B)].sort())
      // date filters: day 2 only
      const day2 = addUtcDays(day1, 1)
      const onDay2 = yield* walk(`/v2/user/${A}/activity?startDate=${day2}&endDate=${day2}`, "activity")
      expect(onDay2.map((entry: any) => entry.type).sort()).toEqual(["feesCharged", "withdrawalRequested"])

      // 2. Position history: one row per day; the last closed day is the chain's position at its close.
      // Day 3 is closed for the gateway once its projection holds a slot of day 4 (throughDate).
      for (let i = 0; ; i++) {
        const latest: any = yield* get(`/v2/vault/${V}/user/${A}/history?limit=1`)
        if (latest.data.throughDate === day3) break
        if (i === 200) return yield* Effect.dieMessage(`the projection never reached day 4: throughDate ${latest.data.throughDate}`)
        chain.step(1)
        yield* Effect.sleep(Duration.millis(50))
      }
      const history = yield* walk(`/v2/vault/${V}/user/${A}/history?limit=1`, "history")
      expect(history.map((row: any) => row.date)).toEqual([day3, day2, day1])
      /** The vault's closing share price of a day: the last price the program applied up to its end. */
      const closingPrice = (date: string) => {
        const priced = emitted.filter(({ event, blockTime }) =>
          ["Allocated", "Redeemed", "ChargedFeesToUser"].includes(event.name) && utcDayOf(blockTime) <= date)
        return BigInt((priced[priced.length - 1]!.event.data as any).sharePrice)
      }
      const [closed] = history
      expect(closed.shares.raw).toBe(truth.shares.toString())
      expect(closed.pendingWithdrawalShares.raw).toBe(truth.pendingShares.toString())
      expect(closed.closingSharePrice).toBe(closingPrice(day3).toString())
      expect(closed.closingValue.raw).toBe((((truth.shares + truth.pendingShares) * closingPrice(day3)) / unit).toString())
      const charged = emitted.find(({ event }) => event.name === "ChargedFeesToUser")!.event as Extract<NtEvent, { name: "ChargedFeesToUser" }>
      expect(charged.data.totalFeeValue > 0n).toBe(true)
      expect(history[1].feesPaid.charged.raw).toBe(charged.data.totalFeeValue.toString())
      expect(history[0].withdrawn.raw).toBe(redeemed.data.grossAmount.toString())

      // the day in progress (includePartial): the same holding, valued at the current price
      const withToday: any = yield* get(`/v2/vault/${V}/user/${A}/history?includePartial=true&limit=2`)
      expect(withToday.data.history.map((row: any) => [row.date, row.partial])).toEqual([[addUtcDays(day3, 1), true], [day3, false]])
      expect(withToday.data.history[0].shares).toEqual(closed.shares)
      expect(withToday.data.history[1]).toEqual(closed)

      // 3. Earnings over days 2-3: the chain's value at the ends and Alice's flows in between.
      const atClose = (date: string) => {
        let shares = 0n
        let pending = 0n
        for (const { event, blockTime } of emitted) {
          if (utcDayOf(blockTime) > date) break
          const data = event.data as any
          if (event.name === "Allocated" || event.name === "ChargedFeesToUser") shares = data.userSharesAfter
          if (event.name === "Redeemed") [shares, pending] = [data.userSharesAfter, 0n]
          if (event.name === "WithdrawalRequested" && data.user === A) [shares, pending] = [shares - data.amount, data.amount]
        }
        return ((shares + pending) * closingPrice(date)) / unit
      }
      const flows = emitted.reduce((sum, { event, blockTime }) => {
        if (utcDayOf(blockTime) < day2 || utcDayOf(blockTime) > day3) return sum
        if (event.name === "Allocated") return sum + event.data.netAmount
        if (event.name === "Redeemed") return sum - event.data.grossAmount
        return sum
      }, 0n)
      const earned = atClose(day3) - atClose(day1) - flows
      // the vault gained on day 2 and fees were charged: the window earned something, prices moved
      expect(earned).not.toBe(0n)
      expect(closingPrice(day3) > closingPrice(day1)).toBe(true)
      const earnings: any = yield* get(`/v2/vault/${V}/user/${A}/earnings?startDate=${day2}&endDate=${day3}`)
      expect(earnings.data.startValue.raw).toBe(atClose(day1).toString())
      expect(earnings.data.endValue.raw).toBe(atClose(day3).toString())
      expect(earnings.data.netDeposits.raw).toBe(flows.toString())
      expect(earnings.data.earnings.raw).toBe(earned.toString())
      expect(earnings.data.earnings.raw).toBe((BigInt(history[0].earnings.raw) + BigInt(history[1].earnings.raw)).toString())
      const across: any = yield* get(`/v2/user/${A}/earnings?startDate=${day2}&endDate=${day3}`)
      expect(across.data.positions).toEqual([earnings.data])
      expect(across.data.totals[0].earnings.raw).toBe(earned.toString())

      // 4. Bad input is a 4xx.
      const status = (path: string) => Effect.map(fetchJson(`${url}${path}`, keyed), (response) => response.status)
      expect(yield* status(`/v2/user/${A}/activity?startDate=${day3}&endDate=${day1}`)).toBe(400)
      expect(yield* status(`/v2/user/${A}/activity?startDate=2026-02-30`)).toBe(400)
      expect(yield* status(`/v2/user/${A}/activity?cursor=forged.cursor`)).toBe(400)
      expect(yield* status(`/v2/user/not-a-wallet/activity`)).toBe(400)
      expect(yield* status(`/v2/user/${A}/activity?vault=4k3Dyjzvzp8eMZWUXbBCjEvwSkkk59S5iCNLY3QrkX6R`)).toBe(404)
      expect(yield* status(`/v2/vault/${V}/user/${A}/history?limit=0`)).toBe(400)
      expect(yield* status(`/v2/vault/${V}/user/9xQeWvG816bUx9EPjHmaT23yvVM2ZWbrrpZb9PusVFin/history`)).toBe(404)
      expect(yield* status(`/v2/vault/${V}/user/9xQeWvG816bUx9EPjHmaT23yvVM2ZWbrrpZb9PusVFin/earnings`)).toBe(404)
      expect(yield* status(`/v2/vault/${V}/user/${A}/earnings?startDate=${day3}&endDate=${day1}`)).toBe(400)
      expect(yield* status(`/v2/vault/${V}/user/${A}/earnings?startDate=2099-01-01`)).toBe(400)
      expect(yield* status(`/v2/user/${A}/earnings?startDate=2099-01-01`)).toBe(400)
    }).pipe(Effect.scoped), 240_000)
})
