import type { UsdPrice } from "../domain/usdPrice.ts"
import type { PriceAsOf } from "./schemas.ts"

/**
 * A `priceOf` for building one body that remembers the oldest price it answered, so the body's
 * `priceAsOf` describes the prices its `usd` values were computed with.
 */
export class PricesSeen {
  #oldest: UsdPrice | null = null

  constructor(private readonly prices: (mint: string) => UsdPrice | null) {}

  readonly priceOf = (mint: string): UsdPrice | null => {
    const price = this.prices(mint)
    if (price !== null && (this.#oldest === null || price.publishTime < this.#oldest.publishTime)) this.#oldest = price
    return price
  }

  get priceAsOf(): PriceAsOf {
    const oldest = this.#oldest
    return oldest === null ? null : { slot: oldest.slot, blockTime: oldest.publishTime }
  }
}
