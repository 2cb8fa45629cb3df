import { describe, expect, it } from "@effect/vitest"
import { Effect, TestClock } from "effect"
import { makeRateLimiterLive } from "../../../layers/memory/RateLimiterLive.ts"

describe("in-memory fixed-window rate limiter", () => {
  it.effect("counts per bucket in windows aligned to the window length; refuses over the limit until the reset", () =>
    Effect.gen(function*() {
      const limiter = makeRateLimiterLive()
      const quota = { limit: 2, windowSeconds: 60 }
      yield* TestClock.setTime(1_000_000_010_000) // 10 s into a 60 s window
      const first = yield* limiter.consume("a", quota)
      expect(first).toEqual({ allowed: true, limit: 2, remaining: 1, reset: 1_000_000_020, retryAfterSeconds: 10 })
      expect((yield* limiter.consume("a", quota)).remaining).toBe(0)
      const refused = yield* limiter.consume("a", quota)
      expect(refused).toMatchObject({ allowed: false, remaining: 0, reset: 1_000_000_020, retryAfterSeconds: 10 })
      expect((yield* limiter.consume("b", quota)).allowed).toBe(true)

      yield* TestClock.adjust("9500 millis")
      expect((yield* limiter.consume("a", quota)).retryAfterSeconds).toBe(1)
      yield* TestClock.adjust("500 millis")
      const next = yield* limiter.consume("a", quota)
      expect(next).toMatchObject({ allowed: true, remaining: 1, reset: 1_000_000_080 })
    }))
})
