import { generateKeyPairSigner } from "@solana/kit"
import { describe, expect, it } from "@effect/vitest"
import { Context, Duration, Effect, Layer } from "effect"
import { PricesLive } from "../../../layers/memory/PricesLive.ts"
import { ProjectionLive } from "../../../layers/projection/ProjectionLive.ts"
import type { AccountUpdated } from "../../../services/ChainSource.ts"
import { Prices } from "../../../services/Prices.ts"
import { Projection } from "../../../services/Projection.ts"
import { encodeAccount } from "../../../src/ntbundle/accounts.ts"
import { blankBundle } from "../../../src/ntbundle/blankAccounts.ts"
import { NTBUNDLE_PROGRAM_ID } from "../../../src/ntbundle/programs.ts"
import { PYTH_RECEIVER_PROGRAM_ID } from "../../../src/pyth/priceUpdate.ts"
import { encodePriceUpdateAccount } from "../../../src/sandbox/pyth/priceAccount.ts"
import { memoryChainStore } from "../../../src/bench/support/memoryChainStore.ts"
import { poll } from "../../support/poll.ts"
import { scriptedChainSource } from "../../../src/bench/support/scriptedChainSource.ts"

const program = NTBUNDLE_PROGRAM_ID
const MINT = "So11111111111111111111111111111111111111112"
const FEED = "7UVimffxr9ow1uXYxsr4LHAcV58mLzhmwaeKvJ1pjLiE"

const priceAccount = (slot: number, price: bigint, publishTime: number): AccountUpdated => ({
  _tag: "AccountUpdated",
  address: FEED,
  owner: PYTH_RECEIVER_PROGRAM_ID,
  slot,
  data: encodePriceUpdateAccount({
    writeAuthority: "11111111111111111111111111111111",
    feedId: new Uint8Array(32).fill(1),
    price,
    conf: 1n,
    exponent: -8,
    publishTime: BigInt(publishTime),
    prevPublishTime: BigInt(publishTime - 1),
    emaPrice: price,
    emaConf: 1n,
    postedSlot: BigInt(slot)
  })
})

describe("price feed accounts in the projection", () => {
  it.live("are held apart from the program's accounts, priced against chain time, checkpointed, closed by a snapshot and restored", () =>
    Effect.gen(function*() {
      const vault = (yield* Effect.promise(() => generateKeyPairSigner())).address
      const chain = yield* scriptedChainSource(program)
      const store = yield* memoryChainStore()
      const prices = PricesLive({ feeds: new Map([[MINT, FEED]]), maxAgeSeconds: 60 })
      const built = yield* Layer.build(
        Layer.provideMerge(prices, ProjectionLive({ checkpointEvery: Duration.millis(50), flushEvery: Duration.millis(20) })).pipe(
          Layer.provide(Layer.merge(chain.layer, store.layer))
        )
      )
      const projection = Context.get(built, Projection)
      const priceOf = Context.get(built, Prices).priceOf

      yield* chain.send(
        { _tag: "SnapshotStarted", slot: 10 },
        { _tag: "AccountUpdated", address: vault, owner: program, slot: 10, data: encodeAccount({ type: "Bundle", data: blankBundle() }) },
        priceAccount(11, 15_000_000_000n, 1_000),
        { _tag: "SnapshotEnded", slot: 10, addresses: new Set([vault, FEED]) },
        { _tag: "TransactionsComplete", signature: "seam", slot: 10 },
        { _tag: "SlotAdvanced", slot: 12, completedBlockTime: 1_010 }
      )
      yield* poll(projection.status, (s) => s.status === "live", "live")
      const held = yield* projection.read((s) => ({
        programAccounts: [...s.accounts.keys()],
        vaults: [...s.vaults.keys()],
        users: s.users.size,
        unrecognised: s.unrecognised.size,
        price: s.priceAccounts.get(FEED)
      }))
      expect(held.programAccounts).toEqual([vault])
      expect(held.vaults).toEqual([vault])
      expect(held.users).toBe(0)
      expect(held.unrecognised).toBe(0)
      expect(held.price?.slot).toBe(11)
      expect(held.price?.update?.price).toBe(15_000_000_000n)
      expect(priceOf(MINT)).toEqual({ usd: 150, publishTime: 1_000, slot: 11 })
      expect(priceOf("EPjFWdd5AufqSSqeM2qN1xzybapC8G4wEGGkZwyTDt1v")).toBeNull()

      // A newer notification moves the price and the version; an older one is ignored.
      const version = yield* projection.read((s) => s.version)
      yield* chain.send(priceAccount(13, 15_100_000_000n, 1_011), priceAccount(12, 1n, 1_012), { _tag: "SlotAdvanced", slot: 14, completedBlockTime: 1_012 })
      yield* poll(projection.read((s) => s.asOf?.slot), (slot) => slot === 13, "slot 13")
      expect(priceOf(MINT)).toEqual({ usd: 151, publishTime: 1_011, slot: 13 })
      expect(yield* projection.read((s) => s.version)).toBeGreaterThan(version)

      // Chain time passing the bound makes it stale.
      yield* chain.send({ _tag: "SlotAdvanced", slot: 15, completedBlockTime: 1_072 })
      yield* poll(projection.read((s) => s.asOf?.slot), (slot) => slot === 14, "slot 14")
      expect(priceOf(MINT)).toBeNull()

      const saved = yield* poll(store.ref.get, (s) => s.accounts.get(FEED)?.slot === 13, "the price account checkpointed")
      expect(saved.accounts.get(FEED)).toMatchObject({ owner: PYTH_RECEIVER_PROGRAM_ID, vault: null })

      // A snapshot without the feed (the account was closed) drops it, here and in the checkpoint.
      yield* chain.send(
        { _tag: "StreamInterrupted", reason: "test" },
        { _tag: "SnapshotStarted", slot: 20 },
        { _tag: "AccountUpdated", address: vault, owner: program, slot: 20, data: encodeAccount({ type: "Bundle", data: blankBundle() }) },
        { _tag: "SnapshotEnded", slot: 20, addresses: new Set([vault]) },
        { _tag: "TransactionsComplete", signature: "seam-2", slot: 20 },
        { _tag: "SlotAdvanced", slot: 21, completedBlockTime: 1_080 }
      )
      yield* poll(projection.read((s) => s.priceAccounts.size), (size) => size === 0, "the price account closed")
      expect(yield* projection.read((s) => [...s.accounts.keys()])).toEqual([vault])
      yield* poll(store.ref.get, (s) => !s.accounts.has(FEED), "the closed price account leaving the checkpoint")
    }).pipe(Effect.scoped))

  it.live("restores a checkpointed price account as a price, not as a program account", () =>
    Effect.gen(function*() {
      const vault = (yield* Effect.promise(() => generateKeyPairSigner())).address
      const chain = yield* scriptedChainSource(program)
      const price = priceAccount(49, 2_500_000_000n, 495)
      const store = yield* memoryChainStore({
        checkpoint: { genesisHash: "genesis-a", programId: program, slot: 50, blockTime: 500, lastSignature: "sig-49" },
        accounts: new Map([
          [vault, { address: vault, owner: program, slot: 40, data: encodeAccount({ type: "Bundle", data: blankBundle() }), vault: null }],
          [FEED, { address: FEED, owner: price.owner, slot: price.slot, data: price.data, vault: null }]
        ])
      })
      const built = yield* Layer.build(
        Layer.provideMerge(PricesLive({ feeds: new Map([[MINT, FEED]]), maxAgeSeconds: 60 }), ProjectionLive()).pipe(
          Layer.provide(Layer.merge(chain.layer, store.layer))
        )
      )
      const projection = Context.get(built, Projection)
      yield* chain.send({ _tag: "TransactionsComplete", signature: "sig-49", slot: 49 }, { _tag: "SlotAdvanced", slot: 51, completedBlockTime: 500 })
      yield* poll(projection.status, (s) => s.status === "live", "live")
      expect(yield* projection.read((s) => [...s.accounts.keys()])).toEqual([vault])
      expect(yield* projection.read((s) => s.priceAccounts.get(FEED)?.update?.price)).toBe(2_500_000_000n)
      expect(Context.get(built, Prices).priceOf(MINT)).toEqual({ usd: 25, publishTime: 495, slot: 49 })
    }).pipe(Effect.scoped))
})
