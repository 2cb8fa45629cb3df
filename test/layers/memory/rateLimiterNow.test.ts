import { describe, expect, it } from "@effect/vitest"
import { Effect, TestClock } from "effect"
import { makeRateLimiterLive } from "../../../layers/memory/RateLimiterLive.ts"

describe("in-memory rate limiter: the synchronous answer", () => {
  it.effect("consumeNow counts in the same windows as consume: one count, whichever way a request is counted", () =>
    Effect.gen(function*() {
      const limiter = makeRateLimiterLive()
      const quota = { limit: 3, windowSeconds: 60 }
      const start = 1_000_000_010_000 // 10 s into a 60 s window
      yield* TestClock.setTime(start)
      expect(limiter.consumeNow("a", quota, start)).toEqual({ allowed: true, limit: 3, remaining: 2, reset: 1_000_000_020, retryAfterSeconds: 10 })
      expect((yield* limiter.consume("a", quota)).remaining).toBe(1)
      expect(limiter.consumeNow("a", quota, start)?.remaining).toBe(0)
      expect(limiter.consumeNow("a", quota, start + 9_500)).toMatchObject({ allowed: false, remaining: 0, retryAfterSeconds: 1 })
      expect(limiter.consumeNow("b", quota, start)?.allowed).toBe(true)
      // The next window starts over.
      expect(limiter.consumeNow("a", quota, start + 10_000)).toMatchObject({ allowed: true, remaining: 2, reset: 1_000_000_080 })
    }))
})
