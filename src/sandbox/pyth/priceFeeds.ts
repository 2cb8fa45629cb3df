import { fromHex } from "../../ntbundle/bytes.ts"
import { type DepositTokenSymbol, tokenBySymbol } from "../../ntbundle/tokens.ts"
import { PYTH_PRICE_FEEDS } from "../../pyth/feedAccounts.ts"
import { priceAsNumber, PRICE_UPDATE_V2_SIZE, PYTH_RECEIVER_PROGRAM_ID } from "../../pyth/priceUpdate.ts"
import type { SandboxChain } from "../chain.ts"
import { deterministicKeypair } from "../crypto/keypair.ts"
import type { Random } from "../crypto/random.ts"
import { minimumBalanceForRentExemption } from "../programs/ids.ts"
import { encodePriceUpdateAccount } from "./priceAccount.ts"
import { type PriceWalk, stableWalk, volatileWalk } from "./priceWalk.ts"

/**
 * Pyth price feed accounts on the sandbox, one per deposit token, at the addresses the real push
 * oracle uses (shard 0 of the token's Pyth feed id) and owned by the receiver program, so that the
 * gateway reads them exactly as on mainnet. Prices move by a seeded random walk, republished every
 * few slots (and at once after a jump of the clock) with publish_time = the slot's block time; each
 * write is an ordinary account write, so accountSubscribe subscribers are notified.
 */
export interface SandboxPriceFeeds {
  /** mint -> price feed account. */
  readonly feeds: ReadonlyMap<string, string>
  /** The price a mint's feed holds now, as posted. */
  readonly current: (mint: string) => { readonly price: bigint; readonly exponent: number; readonly publishTime: number; readonly usd: number } | undefined
  /** Stops republishing (prices then go stale as the clock moves); `resume` starts again. */
  readonly pause: () => void
  readonly resume: () => void
  /** Unhooks from the slot clock for good. */
  readonly stop: () => void
}

export interface PriceFeedOptions {
  /** Republish every this many slots (default 5). */
  readonly everySlots?: number
  /** Republish at once when the chain time moved more than this since the last post (default 10 s). */
  readonly maxGapSeconds?: number
}

const EXPONENT = -8
const SCALE = 10 ** -EXPONENT

const STARTS: Readonly<Record<DepositTokenSymbol, { readonly usd: number; readonly annualVolatility: number } | "stable">> = {
  USDC: "stable",
  USDT: "stable",
  USDE: "stable",
  SOL: { usd: 150, annualVolatility: 0.8 },
  WBTC: { usd: 60_000, annualVolatility: 0.5 },
  WETH: { usd: 3_000, annualVolatility: 0.6 },
  JLP: { usd: 4, annualVolatility: 0.3 }
}

/** mint -> feed account for the sandbox's tokens, without a chain (known before the sandbox starts). */
export const sandboxPriceFeedMap = (): ReadonlyMap<string, string> =>
  new Map((Object.keys(PYTH_PRICE_FEEDS) as Array<DepositTokenSymbol>).map((symbol) => [tokenBySymbol("mainnet", symbol).mint, PYTH_PRICE_FEEDS[symbol].account]))

interface Feed {
  readonly mint: string
  readonly account: string
  readonly feedId: Uint8Array
  readonly walk: PriceWalk
  price: bigint
  publishTime: number
}

export const installPriceFeeds = (chain: SandboxChain, random: Random, options: PriceFeedOptions = {}): SandboxPriceFeeds => {
  const everySlots = options.everySlots ?? 5
  const maxGapSeconds = options.maxGapSeconds ?? 10
  const writeAuthority = deterministicKeypair(chain.seed, "pyth/price-updater").address
  const feeds: Array<Feed> = (Object.keys(PYTH_PRICE_FEEDS) as Array<DepositTokenSymbol>).map((symbol) => {
    const start = STARTS[symbol]
    const walkRandom = random.fork(symbol)
    const walk = start === "stable" ? stableWalk(walkRandom) : volatileWalk(walkRandom, start.usd, start.annualVolatility)
    return {
      mint: tokenBySymbol("mainnet", symbol).mint,
      account: PYTH_PRICE_FEEDS[symbol].account,
      feedId: fromHex(PYTH_PRICE_FEEDS[symbol].feedId),
      walk,
      price: 0n,
      publishTime: 0
    }
  })
  const byMint = new Map(feeds.map((feed) => [feed.mint, feed]))
  const lamports = minimumBalanceForRentExemption(PRICE_UPDATE_V2_SIZE)

  let lastSlot = chain.ledger.slot
  const post = (slot: number, elapsedSeconds: number): void => {
    const publishTime = chain.ledger.clock.blockTime(slot)
    chain.ledger.writeAccounts(
      feeds.map((feed) => {
        const usd = feed.walk.next(elapsedSeconds)
        const price = BigInt(Math.max(1, Math.round(usd * SCALE)))
        const data = encodePriceUpdateAccount({
          writeAuthority,
          feedId: feed.feedId,
          price,
          conf: price / 2_000n,
          exponent: EXPONENT,
          publishTime: BigInt(publishTime),
          prevPublishTime: BigInt(feed.publishTime || publishTime),
          emaPrice: feed.price || price,
          emaConf: price / 2_000n,
          postedSlot: BigInt(slot)
        })
        feed.price = price
        feed.publishTime = publishTime
        return [feed.account, { owner: PYTH_RECEIVER_PROGRAM_ID, lamports, data, executable: false }] as const
      })
    )
    lastSlot = slot
  }
  post(lastSlot, 0)

  let paused = false
  const unhook = chain.scheduler.onSlot((slot) => {
    if (paused) return
    const elapsedSeconds = chain.ledger.clock.blockTime(slot) - chain.ledger.clock.blockTime(lastSlot)
    if (slot - lastSlot >= everySlots || elapsedSeconds > maxGapSeconds) post(slot, elapsedSeconds)
  })

  return {
    feeds: new Map(feeds.map((feed) => [feed.mint, feed.account])),
    current: (mint) => {
      const feed = byMint.get(mint)
      return feed === undefined ? undefined : { price: feed.price, exponent: EXPONENT, publishTime: feed.publishTime, usd: priceAsNumber(feed.price, EXPONENT) }
    },
    pause: () => {
      paused = true
    },
    resume: () => {
      paused = false
    },
    stop: () => {
      paused = true
      unhook()
    }
  }
}
