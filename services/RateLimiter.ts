import { Context, type Effect } from "effect"

export interface Quota {
  readonly limit: number
  readonly windowSeconds: number
}

/** The outcome of one counted request. */
export interface RateLimitDecision {
  readonly allowed: boolean
  readonly limit: number
  /** Requests left in the current window after this one (0 when refused). */
  readonly remaining: number
  /** Unix seconds when the current window ends. */
  readonly reset: number
  /** Whole seconds until the window ends (at least 1). */
  readonly retryAfterSeconds: number
}

/**
 * Fixed-window request counting per bucket (a key id, an IP, ...). Each call counts one request.
 * The in-memory implementation counts per instance; a shared store can back the same port.
 */
export class RateLimiter extends Context.Tag("RateLimiter")<
  RateLimiter,
  {
    readonly consume: (bucket: string, quota: Quota) => Effect.Effect<RateLimitDecision>
    /**
     * The same count, decided at once at `nowMillis` when the store can (the in-memory one always
     * can; a remote store answers undefined and counts nothing): lets a request pass through the
     * middleware without a fiber.
     */
    readonly consumeNow: (bucket: string, quota: Quota, nowMillis: number) => RateLimitDecision | undefined
  }
>() {}
