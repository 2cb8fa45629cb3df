import { Context } from "effect"
import type { UsdPrice } from "../src/domain/usdPrice.ts"

/**
 * USD prices per mint. `priceOf` answers only fresh prices: a stale or missing one is null, and
 * every amount it would have valued carries `usd: null`. Stablecoins get no assumed $1.
 */
export class Prices extends Context.Tag("Prices")<
  Prices,
  { readonly priceOf: (mint: string) => UsdPrice | null }
>() {}
