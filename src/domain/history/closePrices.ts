import type { UsdPrice } from "../usdPrice.ts"
import { addUtcDays, utcDayEnd, utcDayOf } from "./utcDay.ts"

/** Days of samples kept per mint (a day closes at most a few ticks after its midnight). */
const KEPT_DAYS = 3

/**
 * The prices the gateway observed, per mint and per UTC day of their publish time (the newest each
 * day), so that each day's close gets the price seen at it: the last one published before midnight,
 * if at most `maxAgeSeconds` before it. A day whose close the gateway did not see has none.
 */
export class ClosePriceBook {
  private readonly byMint = new Map<string, Map<string, UsdPrice>>()

  constructor(private readonly maxAgeSeconds: number) {}

  observe(mint: string, price: UsdPrice): void {
    let days = this.byMint.get(mint)
    if (days === undefined) {
      days = new Map()
      this.byMint.set(mint, days)
    }
    const day = utcDayOf(price.publishTime)
    const kept = days.get(day)
    if (kept === undefined || kept.publishTime < price.publishTime) days.set(day, price)
    const oldest = addUtcDays(day, -KEPT_DAYS)
    for (const key of days.keys()) if (key < oldest) days.delete(key)
  }

  /** The price of `mint` at the close of `date`, or null when none was seen near that midnight. */
  atClose(mint: string, date: string): UsdPrice | null {
    const price = this.byMint.get(mint)?.get(date)
    return price !== undefined && utcDayEnd(date) - price.publishTime <= this.maxAgeSeconds ? price : null
  }
}
