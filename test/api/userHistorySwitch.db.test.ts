import { HttpApi } from "@effect/platform"
import { describe, expect, it } from "@effect/vitest"
import type { Address } from "@solana/kit"
import { SqlClient } from "@effect/sql"
import { Context, Duration, Effect, Layer } from "effect"
import { NoPricesLive } from "../../layers/memory/PricesLive.ts"
import { DailyRollupLive } from "../../layers/postgres/DailyRollupLive.ts"
import { ReferrerHistoryLive } from "../../layers/postgres/ReferrerHistoryLive.ts"
import { UserActivityLive } from "../../layers/postgres/UserActivityLive.ts"
import { VaultHistoryLive } from "../../layers/postgres/VaultHistoryLive.ts"
import { VaultHistory } from "../../services/VaultHistory.ts"
import { ApiRoutesLive } from "../../layers/uws/ApiRoutes.ts"
import { HttpListener } from "../../layers/uws/HttpServer.ts"
import { BadRequestResponse, InternalErrorResponse } from "../../src/api/errors.ts"
import { UsersApi } from "../../src/api/users/UsersApi.ts"
import { UsersHandlersLive } from "../../src/api/users/UsersHandlers.ts"
import { addUtcDays, utcDayEnd, utcDayOf } from "../../src/domain/history/utcDay.ts"
import { eventsFromLogs, type NtEvent } from "../../src/ntbundle/events.ts"
import { applyFeesToUserIx, netPendingTransactionsIx, processDepositIx, processSwitchIx, processWithdrawalIx, refundDepositIx, updateOracleIx } from "../../src/ntbundle/ix/keeper.ts"
import { initializeBundleDepositorIx, requestBundleSwitchIx } from "../../src/ntbundle/ix/user.ts"
import { NTBUNDLE_PROGRAM_ID } from "../../src/ntbundle/programs.ts"
import type { SendOutcome } from "../../src/sandbox/runtime/processor.ts"
import { fromKitInstructions } from "../../src/sandbox/ntbundle/kitInstruction.ts"
import { listenForTest } from "../../src/bench/support/httpTestServer.ts"
import { PartnerKeyStandIn, TEST_PARTNER_KEY } from "../../src/bench/support/partnerKeyStandIn.ts"
import { fetchJson } from "../support/httpFetch.ts"
import { liveIngestion, scenarioSandbox } from "../support/ingestHarness.ts"

const UsersOnlyApi = HttpApi.make("vault-gateway").add(UsersApi).addError(BadRequestResponse).addError(InternalErrorResponse)
const keyed = { headers: { "x-api-key": TEST_PARTNER_KEY } }

// Two USDC vaults; the switch goes from SOURCE_ID to TARGET_ID, whose deposit fee differs so that
// fee A and fee B cannot be confused. The keeper runs only when the test sends its instructions.
const SOURCE_ID = 76
const TARGET_ID = 78
const scenario = {
  seed: 62, users: 6, builders: 1, activity: 0, keeperIntervalSlots: 10_000_000, vaultIds: [SOURCE_ID, TARGET_ID],
  configureVault: (config: any, id: number) => ({
    ...config,
    depositFeeBps: id === TARGET_ID ? 40 : 50,
    withdrawalFeeBps: 30,
    managementFeeBps: 200,
    withdrawalDelaySeconds: 0n,
    withdrawalTMinSeconds: 20n,
    withdrawalTMaxSeconds: 40n,
    oracleMaxAgeSeconds: 0n,
    maxDepositAmount: 0n
  })
}

interface Emitted {
  readonly signature: string
  readonly index: number
  readonly blockTime: number
  readonly event: NtEvent
}

const DAY_MS = 86_400_000
const SWITCH_EVENTS = ["BundleSwitchRequested", "BundleSwitchCompleted", "BundleSwitchFallbackToWallet"]
/** Events whose vault is `bundleAccountKey`. */
const OWN_VAULT_EVENTS = ["DepositRequested", "Allocated", "RefundedDeposit", "WithdrawalRequested", "Redeemed", "ChargedFeesToUser"]

describe("user datasets over deposits, a refund, fees, a withdrawal and a switch between two vaults of one mint, against the sandbox chain", () => {
  it.live("the feed lists the switch once each; both positions' last closed day is the chain's; earnings are the chain's value change less flows, per vault and across", () =>
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

      const addressOf = (id: number) => sandbox.scenario.vaults.find((v) => v.registry.id === id)!.config.address as Address
      const S = addressOf(SOURCE_ID)
      const T = addressOf(TARGET_ID)
      const vault = (address: Address) => actions.vault(address)!
      const mint = vault(S).bundle.assetAddress as Address
      expect(vault(T).bundle.assetAddress).toBe(mint)
      const unit = 10n ** BigInt(vault(S).bundle.assetDecimals)
      const alice = sandbox.scenario.people.users.find((person) => actions.position(person.keypair.address, S) === null && actions.position(person.keypair.address, T) === null)!
      const A = alice.keypair.address as Address
      const keeperTarget = (bundle: Address) => ({ program: NTBUNDLE_PROGRAM_ID, bundle, keeper: keeper.address as Address, assetMint: mint })
      const emitted: Array<Emitted> = []
      const record = (outcome: SendOutcome | undefined) => {
        if (outcome?.kind !== "landed" || outcome.record.err !== null) {
          throw new Error(`transaction did not land: ${JSON.stringify(outcome?.kind === "landed" ? outcome.record.err : outcome?.kind)}`)
        }
        const blockTime = Math.floor(chain.ledger.clock.unixMs() / 1000)
        for (const { index, event } of eventsFromLogs(outcome.record.logs, NTBUNDLE_PROGRAM_ID)) {
          emitted.push({ signature: outcome.signature, index, blockTime: outcome.record.blockTime ?? blockTime, event })
        }
        chain.step(1)
      }
      const send = (signer: typeof keeper, instruction: Parameters<typeof fromKitInstructions>[0][number]) =>
        record(chain.submit({ feePayer: signer, instructions: fromKitInstructions([instruction]) }))
      const keeperSend = (instruction: Parameters<typeof fromKitInstructions>[0][number]) => send(keeper, instruction)
      const gain = (bundle: Address, fiftieths: bigint) => {
        const oracle = vault(bundle).oracle!
        const equity = vault(bundle).bundle.bundleUnderlyingBalance + oracle.averageExternalEquity
        keeperSend(updateOracleIx({ ...keeperTarget(bundle), newEquity: oracle.averageExternalEquity + equity / fiftieths }))
      }
      const nextDay = () => chain.step(1, DAY_MS)
      const today = () => utcDayOf(Math.floor(chain.ledger.clock.unixMs() / 1000))
      /** The chain's positions at a day's close (taken after the day's last transaction). */
      const truth = new Map<string, { readonly shares: bigint; readonly pending: bigint }>()
      const snapshot = () => {
        for (const bundle of [S, T]) {
          const position = actions.position(A, bundle)
          truth.set(`${bundle}/${today()}`, { shares: position?.shares ?? 0n, pending: position?.pendingShares ?? 0n })
        }
      }

      // Day 1: Alice holds shares in both vaults.
      chain.airdropTokens(A, mint, 1_000n * unit)
      record(actions.deposit(alice.keypair, vault(S), 100n * unit))
      record(actions.deposit(alice.keypair, vault(T), 40n * unit))
      for (const bundle of [S, T]) {
        keeperSend(netPendingTransactionsIx(keeperTarget(bundle)))
        keeperSend(processDepositIx({ ...keeperTarget(bundle), owner: A }))
      }
      // ... and a second deposit into the source is refunded
      record(actions.deposit(alice.keypair, vault(S), 20n * unit))
      keeperSend(netPendingTransactionsIx(keeperTarget(S)))
      keeperSend(refundDepositIx({ ...keeperTarget(S), owner: A }))
      const day1 = today()
      snapshot()
      // Day 2: both vaults gain; Alice is charged fees in the source, asks to switch half her shares
      // and to withdraw part of her target position.
      nextDay()
      gain(S, 40n)
      gain(T, 80n)
      keeperSend(applyFeesToUserIx({ ...keeperTarget(S), owner: A }))
      const switched = actions.position(A, S)!.shares / 2n
      send(alice.keypair, requestBundleSwitchIx({ program: NTBUNDLE_PROGRAM_ID, bundle: S, user: A, targetBundle: T, sharesAmount: switched }))
      record(actions.withdraw(alice.keypair, vault(T), { amount: 10n * unit }))
      const day2 = today()
      snapshot()
      // Day 3: the withdrawal is paid; the switch completes (the net lands as the target's pending deposit), the target
      // allocates it; fees are charged in both vaults after it, so each day closes on a price the
      // program applied to the position.
      nextDay()
      keeperSend(processWithdrawalIx({ ...keeperTarget(T), owner: A, treasury: vault(T).bundle.treasuryAccount as Address }))
      keeperSend(processSwitchIx({
        ...keeperTarget(S), owner: A, treasury: vault(S).bundle.treasuryAccount as Address, targetBundle: T, targetTreasury: vault(T).bundle.treasuryAccount as Address
      }))
      keeperSend(netPendingTransactionsIx(keeperTarget(T)))
      keeperSend(processDepositIx({ ...keeperTarget(T), owner: A }))
      gain(T, 100n)
      for (const bundle of [S, T]) keeperSend(applyFeesToUserIx({ ...keeperTarget(bundle), owner: A }))
      const day3 = today()
      expect(day3).toBe(addUtcDays(day1, 2))
      snapshot()
      chain.step(1, Math.max(1_000, (utcDayEnd(day3) + 60) * 1000 - chain.ledger.clock.unixMs()))

      const requested = emitted.filter(({ event }) => event.name === "BundleSwitchRequested")
      const completed = emitted.filter(({ event }) => event.name === "BundleSwitchCompleted")
      expect([requested.length, completed.length]).toEqual([1, 1])
      const completion = completed[0]!.event as Extract<NtEvent, { name: "BundleSwitchCompleted" }>
      expect(completion.data).toMatchObject({ sourceBundle: S, targetBundle: T, sharesRedeemed: switched })
      expect(completion.data.withdrawalFeeA > 0n && completion.data.depositFeeB > 0n).toBe(true)

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
            const separator = path.includes("?") ? "&" : "?"
            const body: any = yield* get(`${path}${cursor === null ? "" : `${separator}cursor=${encodeURIComponent(cursor)}`}`)
            rows.push(...body.data[key])
            cursor = body.data.nextCursor
          } while (cursor !== null)
          return rows
        })

      // 1. The feed: every event of Alice's once (all the keeper's work here is hers), the switch
      // request and completion once each, in the wallet feed and in both vaults' feeds.
      const vaultOfEvent = ({ event }: Emitted): ReadonlyArray<string> => {
        const data = event.data as any
        return SWITCH_EVENTS.includes(event.name) ? [data.sourceBundle, data.targetBundle] : [data.bundleAccountKey]
      }
      const userEvents = emitted.filter(({ event }) => OWN_VAULT_EVENTS.includes(event.name) || SWITCH_EVENTS.includes(event.name))
      const keyOf = ({ signature, index }: Emitted) => `${signature}:${index}`
      const feedOf = (path: string) =>
        Effect.gen(function*() {
          let feed: Array<any> = []
          for (let i = 0; i < 200; i++) {
            feed = yield* walk(path, "activity")
            if (feed.length >= userEvents.length) break
            chain.step(1)
            yield* Effect.sleep(Duration.millis(50))
          }
          return feed
        })
      const feed = yield* feedOf(`/v2/user/${A}/activity?limit=3`)
      const keys = feed.map((entry) => `${entry.signature}:${entry.eventIndex}`)
      expect(new Set(keys).size).toBe(keys.length)
      expect([...keys].sort()).toEqual(userEvents.map(keyOf).sort())
      expect(feed.filter((entry) => entry.type === "switchRequested").map((entry) => `${entry.signature}:${entry.eventIndex}`)).toEqual(requested.map(keyOf))
      expect(feed.filter((entry) => entry.type === "switchCompleted").map((entry) => `${entry.signature}:${entry.eventIndex}`)).toEqual(completed.map(keyOf))
      const completedItem = feed.find((entry) => entry.type === "switchCompleted")
      expect(completedItem).toMatchObject({ vault: S, targetVault: T })
      expect(completedItem.amounts).toMatchObject({
        shares: { raw: completion.data.sharesRedeemed.toString() },
        gross: { raw: completion.data.grossRedemption.toString() },
        fee: { raw: (completion.data.withdrawalFeeA + completion.data.depositFeeB).toString() },
        net: { raw: completion.data.netCreditedToDestination.toString() }
      })
      for (const bundle of [S, T]) {
        const own = yield* walk(`/v2/vault/${bundle}/user/${A}/activity?limit=100`, "activity")
        const ownKeys = own.map((entry: any) => `${entry.signature}:${entry.eventIndex}`)
        expect(new Set(ownKeys).size).toBe(ownKeys.length)
        expect([...ownKeys].sort()).toEqual(userEvents.filter((e) => vaultOfEvent(e).includes(bundle)).map(keyOf).sort())
        expect(own.filter((entry: any) => entry.type.startsWith("switch")).map((entry: any) => entry.type).sort()).toEqual(["switchCompleted", "switchRequested"])
      }
      expect(feed.map((entry) => entry.type).sort()).toEqual([
        "depositProcessed", "depositProcessed", "depositProcessed", "depositRefunded", "depositRequested", "depositRequested", "depositRequested",
        "feesCharged", "feesCharged", "feesCharged", "switchCompleted", "switchRequested", "withdrawalProcessed", "withdrawalRequested"
      ])

      // 2. Position history: each vault's last closed day is the chain's position at its close.
      /** A vault's closing share price of a day: the last price the program applied in it up to the day's end. */
      const closingPrice = (bundle: string, date: string) => {
        const priced = emitted.filter((e) => {
          const data = e.event.data as any
          const inVault = ["Allocated", "Redeemed", "ChargedFeesToUser"].includes(e.event.name)
            ? data.bundleAccountKey === bundle
            : e.event.name === "BundleSwitchCompleted" && data.sourceBundle === bundle
          return inVault && utcDayOf(e.blockTime) <= date
        })
        return BigInt((priced[priced.length - 1]!.event.data as any).sharePrice)
      }
      const valueAt = (bundle: string, date: string) => {
        const held = truth.get(`${bundle}/${date}`)!
        return ((held.shares + held.pending) * closingPrice(bundle, date)) / unit
      }
      for (const bundle of [S, T]) {
        // the rollup closes day 3 a moment after the chain passes its end
        let history: Array<any> = []
        for (let i = 0; i < 200; i++) {
          history = yield* walk(`/v2/vault/${bundle}/user/${A}/history?limit=2`, "history")
          if (history[0]?.date === day3) break
          chain.step(1)
          yield* Effect.sleep(Duration.millis(50))
        }
        expect(history.map((row: any) => row.date)).toEqual([day3, day2, day1])
        for (const [row, date] of [[history[0], day3], [history[1], day2]] as const) {
          const held = truth.get(`${bundle}/${date}`)!
          expect(row.shares.raw, `${bundle} ${date}`).toBe(held.shares.toString())
          expect(row.pendingWithdrawalShares.raw, `${bundle} ${date}`).toBe(held.pending.toString())
          expect(row.closingSharePrice, `${bundle} ${date}`).toBe(closingPrice(bundle, date).toString())
          expect(row.closingValue.raw, `${bundle} ${date}`).toBe(valueAt(bundle, date).toString())
        }
      }
      // the switched shares are locked in the source at day 2's close, gone at day 3's
      expect(truth.get(`${S}/${day2}`)!.pending).toBe(switched)
      expect(truth.get(`${S}/${day3}`)!.pending).toBe(0n)

      // 3. Earnings over days 2-3 (the switch inside): the chain's value at the ends less the net
      // flows (deposits credited into shares, gross redemptions, the switch's gross out of the source).
      const flowsOf = (bundle: string) =>
        emitted.reduce((sum, { event, blockTime }) => {
          if (utcDayOf(blockTime) < day2 || utcDayOf(blockTime) > day3) return sum
          const data = event.data as any
          if (event.name === "Allocated" && data.bundleAccountKey === bundle) return sum + data.netAmount
          if (event.name === "Redeemed" && data.bundleAccountKey === bundle) return sum - data.grossAmount
          if (event.name === "BundleSwitchCompleted" && data.sourceBundle === bundle) return sum - data.grossRedemption
          return sum
        }, 0n)
      const earnedIn = (bundle: string) => valueAt(bundle, day3) - valueAt(bundle, day1) - flowsOf(bundle)
      const redeemed = emitted.find(({ event }) => event.name === "Redeemed")!.event as Extract<NtEvent, { name: "Redeemed" }>
      expect(redeemed.data.bundleAccountKey).toBe(T)
      expect(flowsOf(T)).toBe(completion.data.netCreditedToDestination - redeemed.data.grossAmount)
      expect(flowsOf(S)).toBe(-completion.data.grossRedemption)
      const positions: Array<any> = []
      for (const bundle of [S, T]) {
        const earnings: any = yield* get(`/v2/vault/${bundle}/user/${A}/earnings?startDate=${day2}&endDate=${day3}`)
        expect(earnings.data.startValue.raw, bundle).toBe(valueAt(bundle, day1).toString())
        expect(earnings.data.endValue.raw, bundle).toBe(valueAt(bundle, day3).toString())
        expect(earnings.data.netDeposits.raw, bundle).toBe(flowsOf(bundle).toString())
        expect(earnings.data.earnings.raw, bundle).toBe(earnedIn(bundle).toString())
        positions.push(earnings.data)
      }
      // both vaults gained: each position earned something over the window
      expect(earnedIn(S) > 0n && earnedIn(T) > 0n).toBe(true)
      const across: any = yield* get(`/v2/user/${A}/earnings?startDate=${day2}&endDate=${day3}`)
      const byVault = (a: any, b: any) => (a.bundleKey < b.bundleKey ? -1 : 1)
      expect([...across.data.positions].sort(byVault)).toEqual([...positions].sort(byVault))
      expect(across.data.totals).toHaveLength(1)
      expect(across.data.totals[0].earnings.raw).toBe((earnedIn(S) + earnedIn(T)).toString())
      // 4. The vaults' capital flows (platform stats) count the switch once on each side: the
      // source's gross out, the target's allocation in (not also the completion's credit).
      const sql = Context.get(ingest, SqlClient.SqlClient)
      const sumOf = (name: string, field: string, bundle: string) =>
        Effect.map(
          sql<{ total: string }>`SELECT COALESCE(SUM((data->>${field})::numeric), 0)::text AS total FROM program_event WHERE name = ${name} AND vault = ${bundle}`,
          ([row]) => BigInt(row!.total)
        )
      const capital = yield* Context.get(sources, VaultHistory).capitalFlows
      expect(capital.byVault.get(T)).toEqual({ deposited: yield* sumOf("Allocated", "netAmount", T), withdrawn: yield* sumOf("Redeemed", "grossAmount", T) })
      expect(capital.byVault.get(S)!.withdrawn).toBe((yield* sumOf("Redeemed", "grossAmount", S)) + completion.data.grossRedemption)
      expect(yield* sumOf("Allocated", "netAmount", T)).toBeGreaterThanOrEqual(40n * unit - 40n * unit * 40n / 10_000n + completion.data.netCreditedToDestination)

      // across vaults the switch is not a flow out: what left the source, less the two fees, came
      // into the target (the only flow out is the withdrawal)
      expect(flowsOf(S) + flowsOf(T)).toBe(-(completion.data.withdrawalFeeA + completion.data.depositFeeB) - redeemed.data.grossAmount)
    }).pipe(Effect.scoped), 240_000)
})
