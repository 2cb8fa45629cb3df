import { describe, expect, it } from "@effect/vitest"
import { address, type Address, createSolanaRpc } from "@solana/kit"
import { Context, Effect, Either, Layer } from "effect"
import { ApiRoutesLive } from "../../layers/uws/ApiRoutes.ts"
import { HttpListener } from "../../layers/uws/HttpServer.ts"
import { NoPricesLive } from "../../layers/memory/PricesLive.ts"
import { VaultHistoryLive } from "../../layers/postgres/VaultHistoryLive.ts"
import { HttpApi } from "@effect/platform"
import { BadRequestResponse, InternalErrorResponse } from "../../src/api/errors.ts"
import { PlatformApi } from "../../src/api/platform/PlatformApi.ts"
import { PlatformHandlersLive } from "../../src/api/platform/PlatformHandlers.ts"
import { decodeAccount } from "../../src/ntbundle/accounts.ts"
import { eventsFromLogs } from "../../src/ntbundle/events.ts"
import { findUserBundlePda } from "../../src/ntbundle/pdas.ts"
import { NTBUNDLE_PROGRAM_ID } from "../../src/ntbundle/programs.ts"
import { listenForTest } from "../../src/bench/support/httpTestServer.ts"
import { PartnerKeyStandIn, TEST_PARTNER_KEY } from "../../src/bench/support/partnerKeyStandIn.ts"
import { fetchJson } from "../support/httpFetch.ts"
import { eventsSettled, expectedEvents, liveIngestion, scenarioSandbox, settledAgainstTruth, stepSlots } from "../support/ingestHarness.ts"

const PlatformOnlyApi = HttpApi.make("vault-gateway").add(PlatformApi).addError(BadRequestResponse).addError(InternalErrorResponse)

// Short cooldowns so that withdrawals are paid out within the run, as well as deposits processed.
const scenario = {
  seed: 12, users: 24, builders: 2, activity: 8, keeperIntervalSlots: 4,
  configureVault: (config: any) => ({ ...config, withdrawalDelaySeconds: 0n, withdrawalTMinSeconds: 1n, withdrawalTMaxSeconds: 3n })
} as const

const add = (sums: Map<string, bigint>, key: string, value: bigint) => sums.set(key, (sums.get(key) ?? 0n) + value)

describe("platform stats against the sandbox's ground truth", () => {
  it.live("cumulativeDeposits and netDeposits equal the deposits and withdrawals the sandbox processed, per asset", () =>
    Effect.gen(function*() {
      const sandbox = yield* scenarioSandbox(scenario)
      const { ingest } = yield* liveIngestion(sandbox)
      yield* stepSlots(sandbox, 120, 20)
      sandbox.scenario.stop()
      yield* stepSlots(sandbox, 3)
      const { truth } = yield* settledAgainstTruth(sandbox, 60_000).pipe(Effect.provide(ingest))
      const expected = yield* Effect.promise(() => expectedEvents(sandbox, NTBUNDLE_PROGRAM_ID))
      yield* eventsSettled(expected, 60_000).pipe(Effect.provide(ingest))

      // Ground truth: the vaults' mints and positions from the chain's accounts, the flows from every
      // program transaction the sandbox landed (its own ledger, listed over RPC).
      const mintOf = new Map<string, string>()
      const positionCounters = new Map<string, bigint>()
      const decoded = [...truth.accounts].map(([key, data]) => [key, decodeAccount(Buffer.from(data, "base64"))] as const)
      for (const [key, account] of decoded) {
        if (Either.isRight(account) && account.right.type === "Bundle") {
          mintOf.set(key, account.right.data.assetAddress)
        }
      }
      const deposited = new Map<string, bigint>()
      const withdrawn = new Map<string, bigint>()
      const requestedGross = new Map<string, bigint>()
      const rpc = createSolanaRpc(sandbox.handle.rpcUrl)
      let before: string | undefined
      for (;;) {
        const page = yield* Effect.promise(() =>
          rpc.getSignaturesForAddress(address(NTBUNDLE_PROGRAM_ID), { limit: 1000, ...(before === undefined ? {} : { before: before as any }) }).send())
        for (const entry of page) {
          const tx = sandbox.handle.ledger.transactions.get(entry.signature)
          if (tx === undefined || tx.err !== null) continue
          for (const { event } of eventsFromLogs(tx.logs, NTBUNDLE_PROGRAM_ID)) {
            const mint = mintOf.get((event.data as { bundleAccountKey?: string }).bundleAccountKey ?? "")
            if (mint === undefined) continue
            if (event.name === "Allocated") add(deposited, mint, event.data.netAmount)
            if (event.name === "Redeemed") add(withdrawn, mint, event.data.grossAmount)
            if (event.name === "DepositRequested") add(requestedGross, mint, event.data.grossAmount)
          }
        }
        if (page.length < 1000) break
        before = page[page.length - 1]!.signature
      }
      // The figure the route used to give as netDeposits: the positions' net_deposits counters summed.
      for (const [key, account] of decoded) {
        if (Either.isRight(account) && account.right.type === "UserBundleAccount") {
          const position = account.right.data
          const vault = [...mintOf.keys()].find((candidate) =>
            findUserBundlePda(NTBUNDLE_PROGRAM_ID, position.owner as Address, candidate as Address)[0] === key)
          if (vault !== undefined) add(positionCounters, mintOf.get(vault)!, position.netDeposits)
        }
      }
      expect([...deposited.values()].some((sum) => sum > 0n)).toBe(true)
      expect([...withdrawn.values()].some((sum) => sum > 0n)).toBe(true)

      const routes = ApiRoutesLive(PlatformOnlyApi).pipe(
        Layer.provide(Layer.mergeAll(PlatformHandlersLive, PartnerKeyStandIn)),
        Layer.provide(Layer.merge(NoPricesLive, VaultHistoryLive))
      )
      const server = yield* Layer.build(listenForTest(routes).pipe(Layer.provide(Layer.succeedContext(ingest))))
      const response = yield* fetchJson(`${Context.get(server, HttpListener).url}/v2/platform/stats`, { headers: { "x-api-key": TEST_PARTNER_KEY } })
      expect(response.status).toBe(200)
      const assets: ReadonlyArray<any> = response.body.data.assets
      expect(assets.map((stats) => stats.asset.mint).sort()).toEqual([...new Set(mintOf.values())].sort())
      for (const stats of assets) {
        const mint: string = stats.asset.mint
        const inflow = deposited.get(mint) ?? 0n
        const outflow = withdrawn.get(mint) ?? 0n
        expect(stats.cumulativeDeposits.raw, mint).toBe(inflow.toString())
        expect(stats.netDeposits.raw, mint).toBe((inflow - outflow).toString())
        expect(BigInt(stats.netDeposits.raw) <= BigInt(stats.cumulativeDeposits.raw)).toBe(true)
        // The deposit fees went to the treasury: the gross requested is never below the capital raised.
        expect((requestedGross.get(mint) ?? 0n) >= inflow).toBe(true)
      }
      // Why it was wrong: the sandbox writes each vault's seed position at genesis, without a
      // transaction, so the counters hold capital no deposit brought in and exceed every deposit made.
      expect([...positionCounters].some(([mint, sum]) => sum > (deposited.get(mint) ?? 0n))).toBe(true)
    }).pipe(Effect.scoped), 180_000)
})
