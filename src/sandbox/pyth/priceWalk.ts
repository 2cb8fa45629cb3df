import type { Random } from "../crypto/random.ts"

/**
 * A seeded random walk of one token's USD price. Volatile tokens follow a driftless geometric walk
 * scaled by the elapsed time; stablecoins wander a few basis points around $1 and are pulled back
 * (they still get a price of their own, never an assumed 1.0).
 */
export interface PriceWalk {
  readonly next: (elapsedSeconds: number) => number
}

const SECONDS_PER_YEAR = 31_536_000

const standardNormal = (random: Random): number => {
  const u = Math.max(random.nextFloat(), Number.MIN_VALUE)
  return Math.sqrt(-2 * Math.log(u)) * Math.cos(2 * Math.PI * random.nextFloat())
}

export const volatileWalk = (random: Random, start: number, annualVolatility: number): PriceWalk => {
  let price = start
  return {
    next: (elapsedSeconds) => {
      const years = Math.max(0, elapsedSeconds) / SECONDS_PER_YEAR
      price *= Math.exp(-(annualVolatility ** 2 / 2) * years + annualVolatility * Math.sqrt(years) * standardNormal(random))
      return price
    }
  }
}

export const stableWalk = (random: Random): PriceWalk => {
  let deviation = 0
  return {
    next: () => {
      deviation = deviation * 0.8 + standardNormal(random) * 0.0003
      deviation = Math.max(-0.005, Math.min(0.005, deviation))
      return 1 + deviation
    }
  }
}
