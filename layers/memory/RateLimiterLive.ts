import { Effect, Layer } from "effect"
import { type Quota, RateLimiter, type RateLimitDecision } from "../../services/RateLimiter.ts"
import { countRefusal } from "../../src/telemetry/rateLimitRefusals.ts"

interface Window {
  /** Unix ms when the window ends. */
  endsAt: number
  count: number
}

/** Above this many buckets, finished windows are dropped on the next window change. */
const SWEEP_ABOVE = 10_000

/**
 * Fixed windows aligned to multiples of the window length since the epoch, counted in this
 * process only.
 */
export const makeRateLimiterLive = () => {
  const windows = new Map<string, Window>()
  const sweep = (now: number) => {
    for (const [bucket, window] of windows) if (window.endsAt <= now) windows.delete(bucket)
  }
  const consumeAt = (now: number, bucket: string, { limit, windowSeconds }: Quota): RateLimitDecision => {
    const windowMs = windowSeconds * 1000
    let window = windows.get(bucket)
    if (window === undefined || window.endsAt <= now) {
      if (windows.size > SWEEP_ABOVE) sweep(now)
      window = { endsAt: Math.floor(now / windowMs) * windowMs + windowMs, count: 0 }
      windows.set(bucket, window)
    }
    const allowed = window.count < limit
    if (allowed) window.count++
    else countRefusal(bucket)
    return {
      allowed,
      limit,
      remaining: limit - window.count,
      reset: Math.ceil(window.endsAt / 1000),
      retryAfterSeconds: Math.max(1, Math.ceil((window.endsAt - now) / 1000))
    }
  }
  return {
    consume: (bucket: string, quota: Quota) =>
      Effect.clockWith((clock) => Effect.sync(() => consumeAt(clock.unsafeCurrentTimeMillis(), bucket, quota))),
    consumeNow: (bucket: string, quota: Quota, nowMillis: number): RateLimitDecision | undefined =>
      consumeAt(nowMillis, bucket, quota)
  }
}

export const RateLimiterLive = Layer.sync(RateLimiter, makeRateLimiterLive)
