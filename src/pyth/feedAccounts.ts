import { address, type Address, getProgramDerivedAddress } from "@solana/kit"
import { fromHex } from "../ntbundle/bytes.ts"
import { type DepositTokenSymbol, tokenBySymbol } from "../ntbundle/tokens.ts"

/**
 * Pyth's push oracle program. Its price feed accounts are PDAs of seeds [shard id as u16
 * little-endian, feed id], hold a PriceUpdateV2 (owned by the receiver program) and are kept
 * current by Pyth's sponsored updaters; shard 0 is the one Pyth's documentation lists.
 */
export const PYTH_PUSH_ORACLE_PROGRAM_ID: Address = address("pythWSnswVUd12oZpeFP8e9CVaEqJg25g1Vtc2biRsT")

/** The price feed account of a feed id on a shard (kit's derivation; the table below is checked against it). */
export const derivePriceFeedAccount = async (feedIdHex: string, shard = 0): Promise<string> => {
  const shardSeed = new Uint8Array(2)
  new DataView(shardSeed.buffer).setUint16(0, shard, true)
  const [pda] = await getProgramDerivedAddress({
    programAddress: PYTH_PUSH_ORACLE_PROGRAM_ID,
    seeds: [shardSeed, fromHex(feedIdHex.replace(/^0x/, ""))]
  })
  return pda
}

/**
 * Per deposit token: the Pyth feed id (published by Pyth) and its shard-0 price feed account
 * (derived from it; a test re-derives every one). Wrapped tokens follow their underlying where Pyth
 * has no feed of the wrapper (WETH: ETH/USD). Stablecoins have feeds of their own: none is assumed
 * to be worth $1.
 */
export const PYTH_PRICE_FEEDS: Readonly<Record<DepositTokenSymbol, { readonly feedId: string; readonly account: string }>> = {
  USDC: { feedId: "eaa020c61cc479712813461ce153894a96a6c00b21ed0cfc2798d1f9a9e9c94a", account: "Dpw1EAVrSB1ibxiDQyTAW6Zip3J4Btk2x4SgApQCeFbX" },
  USDT: { feedId: "2b89b9dc8fdf9f34709a5b106b472f0f39bb6ca9ce04b0fd7f2e971688e2e53b", account: "HT2PLQBcG5EiCcNSaMHAjSgd9F98ecpATbk4Sk5oYuM" },
  USDE: { feedId: "6ec879b1e9963de5ee97e9c8710b742d6228252a5e2ca12d4ae81d7fe5ee8c5d", account: "Cr8vurLth4b7CFNdvoXDpxuRi21CWvbQFLKy8BTwN4Wf" },
  SOL: { feedId: "ef0d8b6fda2ceba41da15d4095d1da392a0d2f8ed0c6c7bc0f4cfac8c280b56d", account: "7UVimffxr9ow1uXYxsr4LHAcV58mLzhmwaeKvJ1pjLiE" },
  WBTC: { feedId: "c9d8b075a5c69303365ae23633d4e085199bf5c520a3b90fed1322a0342ffc33", account: "9gNX5vguzarZZPjTnE1hWze3s6UsZ7dsU3UnAmKPnMHG" },
  WETH: { feedId: "ff61491a931112ddf1bd8147cd1b641375f79f5825126d665480874634fd0ace", account: "42amVS4KgzR9rA28tkVYqVXjq9Qa8dcZQMbH5EYFX6XC" },
  JLP: { feedId: "c811abc82b4bad1f9bd711a2773ccaa935b03ecef974236942cec5e0eb845a3a", account: "2TTGSRSezqFzeLUH8JwRUbtN66XLLaymfYsWRTMjfiMw" }
}

export interface FeedOfMint {
  readonly mint: string
  readonly symbol: DepositTokenSymbol
  readonly feedId: string
  readonly account: string
}

/** The shard-0 price feed account of each mainnet deposit token. */
export const mainnetPriceFeeds = (): ReadonlyArray<FeedOfMint> =>
  (Object.keys(PYTH_PRICE_FEEDS) as Array<DepositTokenSymbol>).map((symbol) => ({
    mint: tokenBySymbol("mainnet", symbol).mint,
    symbol,
    ...PYTH_PRICE_FEEDS[symbol]
  }))
