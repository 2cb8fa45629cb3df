import { Effect } from "effect"
import { cursorKey } from "../../../services/CursorSecret.ts"
import { Projection } from "../../../services/Projection.ts"
import { ReferrerHistory } from "../../../services/ReferrerHistory.ts"
import { addUtcDays, utcDayOf } from "../../domain/history/utcDay.ts"
import { Api } from "../Api.ts"
import { BadRequest, NotFound } from "../errors.ts"
import { implementGroup } from "../handlers.ts"
import { historyNotStored } from "../history/historyPending.ts"
import { lastCompletedDay } from "../history/utcDate.ts"
import type { Address } from "../schemas.ts"
import { stateAsOf } from "../vaults/vaultPath.ts"
import { type HistoryFilters, makeHistoryCursors } from "./historyCursor.ts"
import { toHistoryRow } from "./historyRow.ts"

const DEFAULT_LIMIT = 50
export const ReferrerHistoryHandlersLive = implementGroup(
  Api,
  "referrerHistory",
  Effect.gen(function*() {
    const projection = yield* Projection
    const history = yield* ReferrerHistory
    const cursors = makeHistoryCursors(yield* cursorKey)

    return {
      history: ({ path, urlParams }) =>
        Effect.gen(function*() {
          const filters: HistoryFilters = {
            vault: urlParams.vault ?? null,
            startDate: urlParams.startDate ?? null,
            endDate: urlParams.endDate ?? null,
            includePartial: urlParams.includePartial ?? false
          }
          const { startDate, endDate, vault } = filters
          if (startDate !== null && endDate !== null && startDate > endDate) {
            return yield* new BadRequest({ code: "INVALID_QUERY", message: `startDate ${startDate} is after endDate ${endDate}` })
          }
          const after = urlParams.cursor === undefined ? null : yield* cursors.decode(path.address, filters, urlParams.cursor)
          // The chain position and the vaults' decimals, from the live projection (503 otherwise).
          const { asOf, decimals } = yield* projection.readSync((state) => ({
            asOf: stateAsOf(state),
            decimals: new Map([...state.vaults].map(([address, view]) => [address, view.bundle.assetDecimals]))
          }))
          if (vault !== null && !decimals.has(vault)) {
            return yield* new NotFound({ code: "VAULT_NOT_FOUND", message: `no vault ${vault} on the configured program` })
          }
          const throughDate = lastCompletedDay(asOf.blockTime)
          const upper = endDate !== null && endDate < throughDate ? endDate : throughDate
          const wantsCompleted = startDate === null || startDate <= upper
          const coverage = yield* history.coverage.pipe(Effect.orDie)
          // Never an empty list for days that are only not stored yet (spec §7).
          if (wantsCompleted && (coverage.closedThrough === null || coverage.closedThrough < upper)) {
            return yield* historyNotStored(upper, coverage.closedThrough)
          }
          const limit = urlParams.limit ?? DEFAULT_LIMIT
          const page = wantsCompleted
            ? yield* history.completedDays({ referrer: path.address, vault, from: startDate, to: upper, after, limit }).pipe(Effect.orDie)
            : { rows: [], more: false }
          const today = addUtcDays(throughDate, 1)
          const partialWanted = filters.includePartial && !page.more && (startDate === null || startDate <= today) &&
            (endDate === null || endDate >= today)
          // The day in progress must be stored as well (it is, within seconds of a day closing).
          if (partialWanted && (coverage.coveredThrough === null || utcDayOf(coverage.coveredThrough) < today)) {
            return yield* historyNotStored(today, coverage.closedThrough)
          }
          const provisional = partialWanted
            ? (yield* history.provisional(path.address, vault).pipe(Effect.orDie)).filter((row) => row.date === today)
            : []
          const last = page.rows[page.rows.length - 1]
          return {
            success: true as const,
            data: {
              referrer: path.address as Address,
              throughDate,
              history: [...page.rows, ...provisional].map((row) => toHistoryRow(row, decimals.get(row.vault) ?? null)),
              nextCursor: page.more && last !== undefined ? cursors.encode(path.address, filters, last.date) : null
            },
            asOf
          }
        })
    }
  })
)
