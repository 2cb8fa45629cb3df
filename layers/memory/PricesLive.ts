import { Effect, Either, Layer } from "effect"
import { Prices } from "../../services/Prices.ts"
import { Projection } from "../../services/Projection.ts"
import { freshPrice } from "./freshPrice.ts"

export interface PricesOptions {
  /** The Pyth price feed account of each priced mint; other mints have no price. */
  readonly feeds: ReadonlyMap<string, string>
  /** A price published longer ago than this, in chain time, is stale. */
  readonly maxAgeSeconds: number
}

/**
 * Prices from the Pyth price feed accounts the projection follows: each mint's configured feed when
 * fresh against the projection's chain time, else null (so a price is as of the same slot as the
 * amounts it values).
 */
export const PricesLive = (options: PricesOptions) =>
  Layer.effect(
    Prices,
    Effect.map(Projection, (projection) =>
      Prices.of({
        priceOf: (mint) => {
          const feed = options.feeds.get(mint)
          if (feed === undefined) return null
          const price = projection.readSync((state) =>
            freshPrice(state.priceAccounts.get(feed), state.asOf?.blockTime ?? null, options.maxAgeSeconds)
          )
          return Either.getOrNull(price)
        }
      })
    )
  )

/** No price source: every USD value is null (tests and benchmarks that value nothing). */
export const NoPricesLive = Layer.succeed(Prices, Prices.of({ priceOf: () => null }))
