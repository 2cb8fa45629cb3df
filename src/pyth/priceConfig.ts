import { Config, ConfigError, Either } from "effect"
import type { Cluster } from "../config.ts"
import { mainnetPriceFeeds } from "./feedAccounts.ts"

const BASE58_ADDRESS = /^[1-9A-HJ-NP-Za-km-z]{32,44}$/

/** Where USD prices come from: the price feed account of each mint, and how old a price may be. */
export interface PriceConfig {
  /** `PRICE_FEEDS` entries: mint -> feed account, or null to drop the mint's default feed. */
  readonly overrides: ReadonlyMap<string, string | null>
  readonly maxAgeSeconds: number
}

/**
 * Parses `mint=feedAccount` pairs separated by commas (whitespace ignored); `mint=none` removes a
 * default. Left with a message naming the first bad entry.
 */
export const parsePriceFeeds = (text: string): Either.Either<ReadonlyMap<string, string | null>, string> => {
  const feeds = new Map<string, string | null>()
  for (const raw of text.split(",")) {
    const entry = raw.trim()
    if (entry === "") continue
    const [mint, feed, ...rest] = entry.split("=").map((part) => part.trim())
    if (mint === undefined || feed === undefined || rest.length > 0) return Either.left(`"${entry}" is not mint=feedAccount`)
    if (!BASE58_ADDRESS.test(mint)) return Either.left(`"${mint}" is not a base58 mint address`)
    if (feed !== "none" && !BASE58_ADDRESS.test(feed)) return Either.left(`"${feed}" is not a base58 feed account address (or none)`)
    feeds.set(mint, feed === "none" ? null : feed)
  }
  return Either.right(feeds)
}

export const priceConfig: Config.Config<PriceConfig> = Config.all({
  overrides: Config.string("PRICE_FEEDS").pipe(
    Config.withDefault(""),
    Config.mapOrFail((text) => Either.mapLeft(parsePriceFeeds(text), (message) => ConfigError.InvalidData(["PRICE_FEEDS"], message)))
  ),
  maxAgeSeconds: Config.integer("PRICE_MAX_AGE_SECONDS").pipe(
    Config.validate({ message: "Expected a whole number of seconds >= 1", validation: (n) => n >= 1 }),
    Config.withDefault(120)
  )
})

/**
 * The feed account per mint: the cluster's defaults (mainnet: Pyth's shard-0 feeds of the deposit
 * tokens; the sandbox: the feeds it hosts; devnet: none) with the overrides applied.
 */
export const resolvePriceFeeds = (
  cluster: Cluster,
  overrides: ReadonlyMap<string, string | null>,
  sandboxFeeds: ReadonlyMap<string, string> = new Map()
): ReadonlyMap<string, string> => {
  const defaults: ReadonlyMap<string, string> =
    cluster === "mainnet" ? new Map(mainnetPriceFeeds().map((feed) => [feed.mint, feed.account])) : cluster === "sandbox" ? sandboxFeeds : new Map()
  const feeds = new Map(defaults)
  for (const [mint, feed] of overrides) {
    if (feed === null) feeds.delete(mint)
    else feeds.set(mint, feed)
  }
  return feeds
}
