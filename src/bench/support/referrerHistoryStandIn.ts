import { Effect, Layer } from "effect"
import { type HistoryCoverage, ReferrerHistory } from "../../../services/ReferrerHistory.ts"
import { cutAtDate } from "../../domain/history/datePage.ts"
import type { ReferrerDailyRow } from "../../domain/history/referrerDailyRow.ts"

/**
 * `ReferrerHistory` over fixed rows (completed ones have `partialThrough: null`), paged like the
 * Postgres reader. By default no rows and every day stored.
 */
export const ReferrerHistoryStandIn = (
  rows: ReadonlyArray<ReferrerDailyRow> = [],
  coverage: HistoryCoverage = { closedThrough: "9999-12-30", coveredThrough: 253_402_214_399 }
) =>
  Layer.succeed(
    ReferrerHistory,
    ReferrerHistory.of({
      coverage: Effect.succeed(coverage),
      completedDays: ({ referrer, vault, from, to, after, limit }) =>
        Effect.sync(() => {
          const matching = rows
            .filter((row) =>
              row.partialThrough === null && row.referrer === referrer && (vault === null || row.vault === vault) &&
              row.date <= to && (from === null || row.date >= from) && (after === null || row.date > after)
            )
            .sort((a, b) => (a.date === b.date ? (a.vault < b.vault ? -1 : 1) : a.date < b.date ? -1 : 1))
          const cut = cutAtDate(matching.slice(0, limit + 1), limit)
          if (cut.wholeDate === null) return { rows: cut.page, more: cut.more }
          const whole = matching.filter((row) => row.date === cut.wholeDate)
          return { rows: whole, more: matching.some((row) => row.date > cut.wholeDate!) }
        }),
      provisional: (referrer, vault) =>
        Effect.succeed(rows.filter((row) => row.partialThrough !== null && row.referrer === referrer && (vault === null || row.vault === vault)))
    })
  )
