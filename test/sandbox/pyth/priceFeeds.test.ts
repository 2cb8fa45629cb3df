import { address, createSolanaRpcSubscriptions } from "@solana/kit"
import { Either } from "effect"
import { describe, expect, it } from "vitest"
import { mainnetPriceFeeds } from "../../../src/pyth/feedAccounts.ts"
import { decodePriceUpdateV2, PRICE_UPDATE_V2_SIZE, PYTH_RECEIVER_PROGRAM_ID } from "../../../src/pyth/priceUpdate.ts"
import { createRandom } from "../../../src/sandbox/crypto/random.ts"
import { installPriceFeeds, sandboxPriceFeedMap } from "../../../src/sandbox/pyth/priceFeeds.ts"
import { createSandboxChain, startSandbox } from "../../../src/sandbox/sandbox.ts"
import type { SandboxChain } from "../../../src/sandbox/chain.ts"

const SOL = "So11111111111111111111111111111111111111112"
const USDC = "EPjFWdd5AufqSSqeM2qN1xzybapC8G4wEGGkZwyTDt1v"

const held = (chain: SandboxChain, account: string) => {
  const record = chain.ledger.getAccount(account)
  if (record === undefined) throw new Error(`no account ${account}`)
  return { owner: record.owner, size: record.data.length, update: Either.getOrThrow(decodePriceUpdateV2(record.data)) }
}

const pricePath = (seed: number, slots: number) => {
  const chain = createSandboxChain({ seed, slotMs: 400 })
  const feeds = installPriceFeeds(chain, createRandom(seed, "prices"))
  const path: Array<bigint> = []
  for (let i = 0; i < slots; i++) {
    chain.step(1)
    path.push(feeds.current(SOL)!.price)
  }
  return path
}

describe("the sandbox's Pyth price feeds", () => {
  it("hosts a PriceUpdateV2 per deposit token at mainnet's feed accounts, owned by the receiver, fully verified", () => {
    const chain = createSandboxChain({ seed: 3, slotMs: 400 })
    const feeds = installPriceFeeds(chain, createRandom(3, "prices"))
    expect(feeds.feeds).toEqual(new Map(mainnetPriceFeeds().map((feed) => [feed.mint, feed.account])))
    expect(sandboxPriceFeedMap()).toEqual(feeds.feeds)
    for (const feed of mainnetPriceFeeds()) {
      const { owner, size, update } = held(chain, feed.account)
      expect(owner).toBe(PYTH_RECEIVER_PROGRAM_ID)
      expect(size).toBe(PRICE_UPDATE_V2_SIZE)
      expect(update.feedId).toBe(feed.feedId)
      expect(update.verificationLevel).toEqual({ _tag: "Full" })
      expect(update.publishTime).toBe(chain.ledger.clock.blockTime())
      expect(update.postedSlot).toBe(BigInt(chain.ledger.slot))
      expect(update.price).toBe(feeds.current(feed.mint)!.price)
    }
    // Stablecoins have a price of their own near 1, never an assumed 1.0 without a feed.
    const usdc = feeds.current(USDC)!.usd
    expect(Math.abs(usdc - 1)).toBeLessThan(0.01)
  })

  it("republishes every few slots with the slot's block time, follows a jump of the clock at once, and stops when paused", () => {
    const chain = createSandboxChain({ seed: 3, slotMs: 400 })
    const feeds = installPriceFeeds(chain, createRandom(3, "prices"), { everySlots: 5 })
    const account = feeds.feeds.get(SOL)!
    const first = held(chain, account).update
    chain.step(4)
    expect(held(chain, account).update).toEqual(first)
    chain.step(1)
    const second = held(chain, account).update
    expect(second.postedSlot).toBe(first.postedSlot + 5n)
    expect(second.publishTime).toBe(chain.ledger.clock.blockTime())
    expect(second.prevPublishTime).toBe(first.publishTime)
    expect(second.price).not.toBe(first.price)

    chain.step(1, 60_000)
    expect(held(chain, account).update.publishTime).toBe(chain.ledger.clock.blockTime())

    feeds.pause()
    const paused = held(chain, account).update
    chain.step(12)
    expect(held(chain, account).update).toEqual(paused)
    // Resuming republishes at the next slot (the last post is more than a period old).
    feeds.resume()
    chain.step(1)
    expect(held(chain, account).update.publishTime).toBe(chain.ledger.clock.blockTime())
  })

  it("walks the same path for the same seed and another for another seed", () => {
    expect(pricePath(9, 30)).toEqual(pricePath(9, 30))
    expect(pricePath(9, 30)).not.toEqual(pricePath(10, 30))
  })

  it("announces each update to accountSubscribe subscribers over PubSub", async () => {
    const chain = createSandboxChain({ seed: 4, slotMs: 400 })
    const feeds = installPriceFeeds(chain, createRandom(4, "prices"))
    const sandbox = await startSandbox({ port: 0, clock: "manual", chain })
    const abort = new AbortController()
    try {
      const account = feeds.feeds.get(SOL)!
      const notifications = await createSolanaRpcSubscriptions(sandbox.wsUrl)
        .accountNotifications(address(account), { encoding: "base64", commitment: "confirmed" })
        .subscribe({ abortSignal: abort.signal })
      sandbox.step(5)
      for await (const notification of notifications) {
        const update = Either.getOrThrow(decodePriceUpdateV2(Buffer.from(notification.value.data[0], "base64")))
        expect(notification.value.owner).toBe(PYTH_RECEIVER_PROGRAM_ID)
        expect(Number(notification.context.slot)).toBe(chain.ledger.slot)
        expect(update.price).toBe(feeds.current(SOL)!.price)
        expect(update.publishTime).toBe(chain.ledger.clock.blockTime())
        break
      }
    } finally {
      abort.abort()
      await sandbox.close()
    }
  })
})
