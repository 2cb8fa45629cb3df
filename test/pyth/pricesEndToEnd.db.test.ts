import { FetchHttpClient, HttpApi, HttpApiClient, HttpClient, HttpClientRequest } from "@effect/platform"
import { describe, expect, it } from "@effect/vitest"
import { Context, Duration, Effect, Layer, Option, Stream } from "effect"
import { PricesLive } from "../../layers/memory/PricesLive.ts"
import { ProjectionLive } from "../../layers/projection/ProjectionLive.ts"
import { ChainStoreLive } from "../../layers/postgres/ChainStoreLive.ts"
import { ChainSourceLive } from "../../layers/solana/ChainSourceLive.ts"
import { SolanaRpcLive } from "../../layers/solana/SolanaRpcLive.ts"
import { ApiRoutesLive } from "../../layers/uws/ApiRoutes.ts"
import { HttpListener } from "../../layers/uws/HttpServer.ts"
import { ChainStore } from "../../services/ChainStore.ts"
import { Projection } from "../../services/Projection.ts"
import { BadRequestResponse, InternalErrorResponse } from "../../src/api/errors.ts"
import { VaultsApi } from "../../src/api/vaults/VaultsApi.ts"
import { VaultsHandlersLive } from "../../src/api/vaults/VaultsHandlers.ts"
import { NTBUNDLE_PROGRAM_ID } from "../../src/ntbundle/programs.ts"
import { PYTH_RECEIVER_PROGRAM_ID } from "../../src/pyth/priceUpdate.ts"
import { listenForTest } from "../../src/bench/support/httpTestServer.ts"
import { scenarioSandbox, stepSlots } from "../support/ingestHarness.ts"
import { PartnerKeyStandIn, TEST_PARTNER_KEY } from "../../src/bench/support/partnerKeyStandIn.ts"
import { TestDatabase } from "../../src/bench/support/testDatabase.ts"

const VaultReadsApi = HttpApi.make("vault-gateway").add(VaultsApi).addError(BadRequestResponse).addError(InternalErrorResponse)
const MAX_AGE_SECONDS = 30
const STABLES = new Set(["EPjFWdd5AufqSSqeM2qN1xzybapC8G4wEGGkZwyTDt1v", "Es9vMFrzaCERmJfrF4H2FYD4KCoNkY11McCe8BenwNYB", "DEkqHyPN7GMRJ5cArtQFAWefqbZb33Hyf6s5iCwjEonT"])

describe("USD values from the sandbox's Pyth feeds, end to end", () => {
  it.live("a vault's tvl.usd is its token amount at the feed's current price, and null once the price is stale", () =>
    Effect.gen(function*() {
      const sandbox = yield* scenarioSandbox({ seed: 5, users: 4, builders: 1, activity: 0, keeperIntervalSlots: 10_000 })
      const feeds = sandbox.scenario.prices.feeds
      const ingest = yield* Layer.build(
        ProjectionLive({ checkpointEvery: Duration.millis(300), flushEvery: Duration.millis(50) }).pipe(
          Layer.provideMerge(
            ChainSourceLive({
              rpcUrl: sandbox.handle.rpcUrl,
              wsUrl: sandbox.handle.wsUrl,
              programId: NTBUNDLE_PROGRAM_ID,
              watchedAccounts: [...feeds.values()],
              reconcileInterval: Duration.millis(500)
            }).pipe(Layer.provide(SolanaRpcLive()))
          ),
          Layer.provideMerge(ChainStoreLive),
          Layer.provideMerge(TestDatabase)
        )
      )
      const projection = Context.get(ingest, Projection)
      for (let i = 0; i < 200 && (yield* projection.status).status !== "live"; i++) yield* stepSlots(sandbox, 1, 20)

      const prices = PricesLive({ feeds, maxAgeSeconds: MAX_AGE_SECONDS }).pipe(Layer.provide(Layer.succeedContext(ingest)))
      const routes = ApiRoutesLive(VaultReadsApi).pipe(Layer.provide(Layer.merge(VaultsHandlersLive, PartnerKeyStandIn)), Layer.provide(prices))
      const server = yield* Layer.build(listenForTest(routes).pipe(Layer.provide(Layer.succeedContext(ingest))))
      const client = yield* HttpApiClient.make(VaultReadsApi, {
        baseUrl: Context.get(server, HttpListener).url,
        transformClient: HttpClient.mapRequest(HttpClientRequest.setHeader("x-api-key", TEST_PARTNER_KEY))
      }).pipe(Effect.provide(FetchHttpClient.layer))

      const vaults = (yield* client.vaults.list()).data
      const funded = vaults.filter((vault) => vault.tvl !== null && vault.tvl.raw !== "0" && feeds.has(vault.asset.mint))
      // A volatile asset if there is one: its price is far from 1, so a wrong price cannot pass.
      const vault = funded.find((v) => !STABLES.has(v.asset.mint)) ?? funded[0]
      if (vault === undefined) return yield* Effect.die(new Error(`no funded vault among ${vaults.map((v) => v.asset.mint).join(", ")}`))
      const address = vault.bundleKey
      const mint = vault.asset.mint

      /** Polls the running server until the vault's USD value is the one `expected` computes from the record (null: stale). */
      const valuedAt = (expected: (token: string) => number | null, what: string) =>
        Effect.gen(function*() {
          let last: unknown = null
          for (let i = 0; i < 100; i++) {
            // 503 while the projection resynchronises after a reconnect: keep polling.
            const response = yield* Effect.either(client.vaults.get({ path: { vaultAddress: address } }))
            if (response._tag === "Left") {
              last = response.left
            } else {
              const record = response.right.data
              last = record.tvl
              if (record.tvl !== null && record.tvl.usd === expected(record.tvl.token)) return record.tvl
            }
            yield* Effect.sleep(Duration.millis(30))
          }
          return yield* Effect.die(new Error(`${what}: tvl ${JSON.stringify(last)}`))
        })
      const atSandboxPrice = (token: string) => Number(token) * sandbox.scenario.prices.current(mint)!.usd

      const first = sandbox.scenario.prices.current(mint)!
      const tvl = yield* valuedAt(atSandboxPrice, "priced at the sandbox's price")
      expect(tvl.usd).toBeGreaterThan(0)

      // The walk moves the price every few slots; the served value follows it.
      yield* stepSlots(sandbox, 12)
      const moved = sandbox.scenario.prices.current(mint)!
      expect(moved.price).not.toBe(first.price)
      expect(moved.publishTime).toBeGreaterThan(first.publishTime)
      yield* valuedAt(atSandboxPrice, "following the moved price")

      // Updates posted while the connection is down are read again when it comes back (the
      // sockets close and the slots advance in one synchronous step: no client can listen meanwhile).
      const beforeDisconnect = sandbox.scenario.prices.current(mint)!
      sandbox.handle.faults.apply({ kind: "closeSockets" })
      sandbox.handle.step(6)
      sandbox.scenario.prices.pause()
      expect(sandbox.scenario.prices.current(mint)!.price).not.toBe(beforeDisconnect.price)
      yield* valuedAt(atSandboxPrice, "the price missed while disconnected, read at the reconnect")
      // the answer says how fresh its price is: the posted update's publish time and slot
      const priced = yield* client.vaults.get({ path: { vaultAddress: address } })
      expect(priced.priceAsOf?.blockTime).toBe(sandbox.scenario.prices.current(mint)!.publishTime)
      // (price accounts apply as they arrive, so the posted slot may be newer than the last complete slot, asOf)
      expect(priced.priceAsOf!.slot).toBeGreaterThan(0)

      // No more updates, and the chain clock passes the bound: the value is unpriced, not 0 or stale.
      sandbox.handle.chain.step(1, (MAX_AGE_SECONDS + 5) * 1_000)
      yield* stepSlots(sandbox, 2)
      yield* valuedAt(() => null, "unpriced once stale")
      const staleList = yield* client.vaults.list()
      const stale = staleList.data
      expect(stale.every((vault) => vault.tvl === null || vault.tvl.usd === null)).toBe(true)
      expect(staleList.priceAsOf).toBeNull()

      // Updates resume: priced again.
      sandbox.scenario.prices.resume()
      yield* stepSlots(sandbox, 6)
      yield* valuedAt(atSandboxPrice, "priced again after updates resume")

      // The feed accounts are checkpointed in PostgreSQL with their owner, beside the program's accounts.
      const store = Context.get(ingest, ChainStore)
      const checkpointed = yield* Effect.gen(function*() {
        for (let i = 0; i < 100; i++) {
          const accounts = Option.isSome(yield* store.loadCheckpoint) ? [...(yield* Stream.runCollect(store.checkpointedAccounts))] : []
          const priced = accounts.filter((account) => account.owner === PYTH_RECEIVER_PROGRAM_ID)
          if (priced.length === feeds.size) return priced
          yield* Effect.sleep(Duration.millis(50))
        }
        return []
      })
      expect(checkpointed.map((account) => account.address).sort()).toEqual([...feeds.values()].sort())
    }).pipe(Effect.scoped), 60_000)
})
