import { ConfigProvider, Effect, Either } from "effect"
import { describe, expect, it } from "vitest"
import { mainnetPriceFeeds } from "../../src/pyth/feedAccounts.ts"
import { parsePriceFeeds, priceConfig, resolvePriceFeeds } from "../../src/pyth/priceConfig.ts"

const SOL = "So11111111111111111111111111111111111111112"
const USDC = "EPjFWdd5AufqSSqeM2qN1xzybapC8G4wEGGkZwyTDt1v"
const FEED = "7UVimffxr9ow1uXYxsr4LHAcV58mLzhmwaeKvJ1pjLiE"

const load = (env: Record<string, string>) =>
  Effect.runSync(Effect.either(Effect.withConfigProvider(priceConfig, ConfigProvider.fromMap(new Map(Object.entries(env))))))

describe("PRICE_FEEDS", () => {
  it("parses mint=feedAccount pairs, spaces ignored, none removing a default", () => {
    expect(parsePriceFeeds(` ${SOL} = ${FEED} ,${USDC}=none,`)).toEqual(Either.right(new Map([[SOL, FEED], [USDC, null]])))
    expect(parsePriceFeeds("")).toEqual(Either.right(new Map()))
  })

  it("names the bad entry", () => {
    expect(parsePriceFeeds(`${SOL}`)).toEqual(Either.left(`"${SOL}" is not mint=feedAccount`))
    expect(parsePriceFeeds(`${SOL}=${FEED}=x`)).toEqual(Either.left(`"${SOL}=${FEED}=x" is not mint=feedAccount`))
    expect(parsePriceFeeds(`0x12=${FEED}`)).toEqual(Either.left(`"0x12" is not a base58 mint address`))
    expect(parsePriceFeeds(`${SOL}=l0l`)).toEqual(Either.left(`"l0l" is not a base58 feed account address (or none)`))
  })

  it("loads from the environment with a 120 s default bound, failing on bad values", () => {
    expect(load({})).toEqual(Either.right({ overrides: new Map(), maxAgeSeconds: 120 }))
    expect(load({ PRICE_FEEDS: `${SOL}=${FEED}`, PRICE_MAX_AGE_SECONDS: "30" })).toEqual(
      Either.right({ overrides: new Map([[SOL, FEED]]), maxAgeSeconds: 30 })
    )
    expect(Either.isLeft(load({ PRICE_FEEDS: "nonsense" }))).toBe(true)
    expect(Either.isLeft(load({ PRICE_MAX_AGE_SECONDS: "0" }))).toBe(true)
  })

  it("applies overrides over the cluster's defaults", () => {
    const mainnet = resolvePriceFeeds("mainnet", new Map<string, string | null>([[USDC, null], [SOL, FEED.replace("7", "8")]]))
    expect(mainnet.has(USDC)).toBe(false)
    expect(mainnet.get(SOL)).toBe(FEED.replace("7", "8"))
    expect(mainnet.size).toBe(mainnetPriceFeeds().length - 1)
    expect(resolvePriceFeeds("devnet", new Map()).size).toBe(0)
    const sandbox = new Map([[SOL, FEED]])
    expect(resolvePriceFeeds("sandbox", new Map(), sandbox)).toEqual(sandbox)
    expect(resolvePriceFeeds("mainnet", new Map(), sandbox).get(SOL)).toBe(FEED)
  })
})
