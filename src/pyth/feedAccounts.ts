import { address, type Address } from "@solana/kit"
import { fromHex } from "../ntbundle/bytes.ts"
import { findProgramAddressSync } from "../ntbundle/pdas.ts"
import { type DepositTokenSymbol, tokenBySymbol } from "../ntbundle/tokens.ts"

/**
 * Pyth's push oracle program. Its price feed accounts are PDAs of seeds [shard id as u16
 * little-endian, feed id], hold a PriceUpdateV2 (owned by the receiver program) and are kept
 * current by Pyth's sponsored updaters; shard 0 is the one Pyth's documentation lists.
 */
export const PYTH_PUSH_ORACLE_PROGRAM_ID: Address = address("pythWSnswVUd12oZpeFP8e9CVaEqJg25g1Vtc2biRsT")

export const priceFeedAccount = (feedIdHex: string, shard = 0): string => {
  const shardSeed = new Uint8Array(2)
  new DataView(shardSeed.buffer).setUint16(0, shard, true)
  return findProgramAddressSync(PYTH_PUSH_ORACLE_PROGRAM_ID, [shardSeed, fromHex(feedIdHex.replace(/^0x/, ""))])[0]
}

/**
 * Pyth feed ids (published by Pyth) for each deposit token. The wrapped tokens follow their
 * underlying where Pyth has no feed of the wrapper (WETH: ETH/USD); stablecoins have feeds of
 * their own, so none is assumed to be worth $1.
 */
export const PYTH_FEED_IDS: Readonly<Record<DepositTokenSymbol, string>> = {
  USDC: "eaa020c61cc479712813461ce153894a96a6c00b21ed0cfc2798d1f9a9e9c94a",
  USDT: "2b89b9dc8fdf9f34709a5b106b472f0f39bb6ca9ce04b0fd7f2e971688e2e53b",
  USDE: "6ec879b1e9963de5ee97e9c8710b742d6228252a5e2ca12d4ae81d7fe5ee8c5d",
  SOL: "ef0d8b6fda2ceba41da15d4095d1da392a0d2f8ed0c6c7bc0f4cfac8c280b56d",
  WBTC: "c9d8b075a5c69303365ae23633d4e085199bf5c520a3b90fed1322a0342ffc33",
  WETH: "ff61491a931112ddf1bd8147cd1b641375f79f5825126d665480874634fd0ace",
  JLP: "c811abc82b4bad1f9bd711a2773ccaa935b03ecef974236942cec5e0eb845a3a"
}

export interface FeedOfMint {
  readonly mint: string
  readonly symbol: DepositTokenSymbol
  readonly feedId: string
  readonly account: string
}

/** The shard-0 price feed account of each mainnet deposit token. */
export const mainnetPriceFeeds = (): ReadonlyArray<FeedOfMint> =>
  (Object.keys(PYTH_FEED_IDS) as Array<DepositTokenSymbol>).map((symbol) => ({
    mint: tokenBySymbol("mainnet", symbol).mint,
    symbol,
    feedId: PYTH_FEED_IDS[symbol],
    account: priceFeedAccount(PYTH_FEED_IDS[symbol])
  }))
