import type { SqlError } from "@effect/sql/SqlError"
import { Clock, Effect, Option } from "effect"
import { ReferrerHistory } from "../../../services/ReferrerHistory.ts"

/** While the rollup has not closed the last completed day, its coverage is asked at most this often. */
export const COVERAGE_RECHECK_MS = 10_000

/**
 * The day the yields are computed through: the last completed UTC day, or the last day the history
 * rollup has stored when it has not closed that one yet (just after midnight: yesterday's figures
 * rather than figures over a missing day); null while nothing is stored (the backfill runs).
 * The coverage only grows, so once a day is known stored no query is made for it again. Without
 * a `ReferrerHistory` (the rollup's coverage), every completed day counts as stored.
 */
export const makeYieldCoverage = Effect.map(Effect.serviceOption(ReferrerHistory), (service) => {
  let closedThrough: string | null = null
  let checkedAtMs = -Infinity
  const bounded = (through: string) => (closedThrough === null ? null : closedThrough < through ? closedThrough : through)
  return (through: string): Effect.Effect<string | null, SqlError> => {
    if (Option.isNone(service)) return Effect.succeed(through)
    if (closedThrough !== null && closedThrough >= through) return Effect.succeed(through)
    return Effect.flatMap(Clock.currentTimeMillis, (now) => {
      if (now - checkedAtMs < COVERAGE_RECHECK_MS) return Effect.succeed(bounded(through))
      return Effect.map(service.value.coverage, (coverage) => {
        checkedAtMs = now
        if (coverage.closedThrough !== null && (closedThrough === null || coverage.closedThrough > closedThrough)) {
          closedThrough = coverage.closedThrough
        }
        return bounded(through)
      })
    })
  }
})
