/** A USD price of one token and when its source published it (unix seconds). */
export interface UsdPrice {
  readonly usd: number
  readonly publishTime: number
  /** The slot the price update was posted at on chain. */
  readonly slot: number
}
