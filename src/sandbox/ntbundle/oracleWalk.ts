import type { Random } from "../crypto/random.ts"

/**
 * The keeper's reported external equity: a seeded geometric random walk of the vault's total
 * equity (so share prices move, mostly upwards), of which the part not held by the vault's own
 * token account is what update_oracle reports. Per vault, drift and volatility are drawn once.
 */
export interface OracleWalk {
  /** The external equity to report now, given the vault's current state and the seconds since the last report. */
  readonly next: (input: { readonly underlying: bigint; readonly externalEquity: bigint; readonly elapsedSeconds: number; readonly maxMoveBps: bigint }) => bigint
  readonly annualDrift: number
  readonly annualVolatility: number
}

const SECONDS_PER_YEAR = 31_536_000
const SCALE = 1_000_000_000

const standardNormal = (random: Random): number => {
  const u = Math.max(random.nextFloat(), Number.MIN_VALUE)
  return Math.sqrt(-2 * Math.log(u)) * Math.cos(2 * Math.PI * random.nextFloat())
}

export const createOracleWalk = (random: Random): OracleWalk => {
  const annualDrift = -0.02 + random.nextFloat() * 0.27
  const annualVolatility = 0.02 + random.nextFloat() * 0.18
  return {
    annualDrift,
    annualVolatility,
    next: ({ underlying, externalEquity, elapsedSeconds, maxMoveBps }) => {
      const equity = underlying + externalEquity
      if (equity === 0n || elapsedSeconds <= 0) return externalEquity
      const years = elapsedSeconds / SECONDS_PER_YEAR
      const factor = Math.exp((annualDrift - (annualVolatility * annualVolatility) / 2) * years + annualVolatility * Math.sqrt(years) * standardNormal(random))
      let move = (equity * BigInt(Math.round(factor * SCALE))) / BigInt(SCALE) - equity
      if (maxMoveBps > 0n) {
        const limit = (equity * maxMoveBps) / 10_000n
        move = move > limit ? limit : move < -limit ? -limit : move
      }
      const next = externalEquity + move
      return next < 0n ? 0n : next
    }
  }
}
