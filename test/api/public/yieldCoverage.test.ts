import { describe, expect, it } from "@effect/vitest"
import { Duration, Effect, TestClock } from "effect"
import { ReferrerHistory } from "../../../services/ReferrerHistory.ts"
import { COVERAGE_RECHECK_MS, makeYieldCoverage } from "../../../src/api/public/yieldCoverage.ts"

/** The rollup's coverage as the test sets it, counting the queries. */
const rollup = () => {
  const state = { closedThrough: null as string | null, queries: 0 }
  const service = ReferrerHistory.of({
    coverage: Effect.sync(() => {
      state.queries++
      return { closedThrough: state.closedThrough, coveredThrough: null }
    }),
    completedDays: () => Effect.die(new Error("unused")),
    provisional: () => Effect.die(new Error("unused"))
  })
  return { state, service }
}

describe("the day yields are computed through", () => {
  it.effect("null while nothing is stored, the stored day until the last completed one is closed, then no more queries", () =>
    Effect.gen(function*() {
      const { state, service } = rollup()
      const storedThrough = yield* makeYieldCoverage.pipe(Effect.provideService(ReferrerHistory, service))
      expect(yield* storedThrough("2026-03-09")).toBeNull()
      // asked again within the recheck interval: no query
      state.closedThrough = "2026-03-08"
      expect(yield* storedThrough("2026-03-09")).toBeNull()
      expect(state.queries).toBe(1)
      yield* TestClock.adjust(Duration.millis(COVERAGE_RECHECK_MS))
      expect(yield* storedThrough("2026-03-09")).toBe("2026-03-08")
      state.closedThrough = "2026-03-09"
      yield* TestClock.adjust(Duration.millis(COVERAGE_RECHECK_MS))
      expect(yield* storedThrough("2026-03-09")).toBe("2026-03-09")
      expect(state.queries).toBe(3)
      // stored: no query for this day (or an earlier one) however often it is asked
      for (let i = 0; i < 5; i++) {
        yield* TestClock.adjust(Duration.millis(COVERAGE_RECHECK_MS))
        expect(yield* storedThrough("2026-03-09")).toBe("2026-03-09")
      }
      expect(yield* storedThrough("2026-03-01")).toBe("2026-03-01")
      expect(state.queries).toBe(3)
      // the next day ends: asked again until the rollup closes it
      expect(yield* storedThrough("2026-03-10")).toBe("2026-03-09")
      expect(state.queries).toBe(4)
    }))

  it.effect("without the rollup's coverage every completed day counts as stored", () =>
    Effect.gen(function*() {
      const storedThrough = yield* makeYieldCoverage
      expect(yield* storedThrough("2026-03-09")).toBe("2026-03-09")
    }))
})
