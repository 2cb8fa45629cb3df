import { describe, expect, it } from "vitest"
import { derivePriceFeedAccount, mainnetPriceFeeds, PYTH_PRICE_FEEDS } from "../../src/pyth/feedAccounts.ts"

describe("Pyth price feed accounts", () => {
  it("derives the shard-0 accounts Pyth publishes for known feeds", async () => {
    // Addresses as Pyth's price feed listing and integrators' configurations show them.
    expect(await derivePriceFeedAccount("0xef0d8b6fda2ceba41da15d4095d1da392a0d2f8ed0c6c7bc0f4cfac8c280b56d")).toBe("7UVimffxr9ow1uXYxsr4LHAcV58mLzhmwaeKvJ1pjLiE") // SOL/USD
    expect(await derivePriceFeedAccount("e62df6c8b4a85fe1a67db44dc12de5db330f7ac66b72dc658afedf0f4a415b43")).toBe("4cSM2e6rvbGQUFiJbqytoVMi5GgghSMr8LwVrT9VPSPo") // BTC/USD
    expect(await derivePriceFeedAccount("c811abc82b4bad1f9bd711a2773ccaa935b03ecef974236942cec5e0eb845a3a")).toBe("2TTGSRSezqFzeLUH8JwRUbtN66XLLaymfYsWRTMjfiMw") // JLP/USD
    expect(await derivePriceFeedAccount("c9d8b075a5c69303365ae23633d4e085199bf5c520a3b90fed1322a0342ffc33")).toBe("9gNX5vguzarZZPjTnE1hWze3s6UsZ7dsU3UnAmKPnMHG") // WBTC/USD
  })

  it("commits exactly the derived shard-0 account of every feed in the table", async () => {
    for (const { feedId, account } of Object.values(PYTH_PRICE_FEEDS)) {
      expect(await derivePriceFeedAccount(feedId)).toBe(account)
      expect(await derivePriceFeedAccount(feedId, 1)).not.toBe(account)
    }
  })

  it("has one distinct feed account per mainnet deposit token, stablecoins included", () => {
    const feeds = mainnetPriceFeeds()
    expect(feeds.map((feed) => feed.symbol).sort()).toEqual(["JLP", "SOL", "USDC", "USDE", "USDT", "WBTC", "WETH"])
    expect(new Set(feeds.map((feed) => feed.account)).size).toBe(feeds.length)
    expect(feeds.find((feed) => feed.symbol === "SOL")).toEqual({
      mint: "So11111111111111111111111111111111111111112",
      symbol: "SOL",
      feedId: "ef0d8b6fda2ceba41da15d4095d1da392a0d2f8ed0c6c7bc0f4cfac8c280b56d",
      account: "7UVimffxr9ow1uXYxsr4LHAcV58mLzhmwaeKvJ1pjLiE"
    })
  })
})
