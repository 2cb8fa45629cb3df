import { Effect, Option } from "effect"
import { ReferrerHistory } from "../../../services/ReferrerHistory.ts"
import { ProjectionUnavailable } from "../../domain/errors.ts"

/** Seconds a client should wait while requested days are still being stored. */
export const HISTORY_RETRY_SECONDS = 30

/** 503: the daily rows through `through` are not stored yet (the backfill runs, or the day just ended). */
export const historyNotStored = (through: string, stored: string | null) =>
  new ProjectionUnavailable({
    code: "PROJECTION_UNAVAILABLE",
    status: "history_pending",
    retryAfterSeconds: HISTORY_RETRY_SECONDS,
    message: `daily history through ${through} is not stored yet (${
      stored === null ? "the history backfill is still running" : `stored through ${stored}`
    }); retry in ${HISTORY_RETRY_SECONDS} s`
  })

/**
 * Fails with `historyNotStored` unless the history rollup has closed every day through `through`.
 * Where no `ReferrerHistory` (the rollup's coverage) is provided, nothing is checked.
 */
export const requireStoredThrough = Effect.map(Effect.serviceOption(ReferrerHistory), (service) => (through: string) =>
  Option.match(service, {
    onNone: () => Effect.void,
    onSome: (history) =>
      Effect.flatMap(Effect.orDie(history.coverage), ({ closedThrough }) =>
        closedThrough !== null && closedThrough >= through ? Effect.void : Effect.fail(historyNotStored(through, closedThrough)))
  }))
