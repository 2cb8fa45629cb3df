import { Context, Layer } from "effect"

/** A USD price of one token and when its source published it (unix seconds). */
export interface UsdPrice {
  readonly usd: number
  readonly publishTime: number
}

/**
 * USD prices per mint. `priceOf` answers only fresh prices: a stale or missing one is null, and
 * every amount it would have valued carries `usd: null`. Stablecoins get no assumed $1.
 */
export class Prices extends Context.Tag("Prices")<
  Prices,
  { readonly priceOf: (mint: string) => UsdPrice | null }
>() {}

/**
 * No price source: every USD value is null. `serve` uses the Pyth feeds the projection follows
 * (layers/memory/PricesLive.ts); this stays for tests and tools that value nothing.
 */
export const NoPricesLive = Layer.succeed(Prices, Prices.of({ priceOf: () => null }))
