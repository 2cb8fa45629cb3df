/** A USD price of one token and when its source published it (unix seconds). */
export interface UsdPrice {
  readonly usd: number
  readonly publishTime: number
}
