import { describe, expect, it } from "@effect/vitest"
import { Duration, Effect, TestClock } from "effect"
import { VaultHistory } from "../../../services/VaultHistory.ts"
import { INCOMPLETE_HISTORY_TTL_MS, makeYieldApys } from "../../../src/api/public/yieldApys.ts"
import { AUTOPILOT, countingHistory, SECOND } from "./yieldHistoryFixture.ts"

describe("yield APY cache", () => {
  const fees = { managementFeeBps: 0, performanceFeeBps: 1_000 }

  it.effect("history short of the last completed day is read again after the short TTL, complete history not", () =>
    Effect.gen(function*() {
      const counts = new Map<string, number>()
      const apys = yield* makeYieldApys.pipe(Effect.provideService(VaultHistory, countingHistory(counts)))
      // SECOND's rows end 2026-03-09: complete through that day, incomplete through 2026-03-10
      yield* apys.of(SECOND, "2026-03-09", fees)
      yield* TestClock.adjust(Duration.hours(20))
      yield* apys.of(SECOND, "2026-03-09", fees)
      expect(counts.get(SECOND)).toBe(1)
      yield* apys.of(SECOND, "2026-03-10", fees)
      yield* apys.of(SECOND, "2026-03-10", fees)
      expect(counts.get(SECOND)).toBe(2)
      yield* TestClock.adjust(Duration.millis(INCOMPLETE_HISTORY_TTL_MS + 1))
      yield* apys.of(SECOND, "2026-03-10", fees)
      expect(counts.get(SECOND)).toBe(3)
      // a fee change recomputes the same day
      yield* apys.of(SECOND, "2026-03-09", { ...fees, managementFeeBps: 50 })
      expect(counts.get(SECOND)).toBe(4)
    }))

  it.effect("concurrent requests share one read", () =>
    Effect.gen(function*() {
      const counts = new Map<string, number>()
      const apys = yield* makeYieldApys.pipe(Effect.provideService(VaultHistory, countingHistory(counts)))
      const all = yield* Effect.all(Array.from({ length: 20 }, () => apys.of(AUTOPILOT, "2026-03-09", fees)), { concurrency: "unbounded" })
      expect(counts.get(AUTOPILOT)).toBe(1)
      expect(new Set(all.map((figures) => JSON.stringify(figures))).size).toBe(1)
    }))
})
