import type { Either } from "effect"
import type { BadRequest } from "../errors.ts"
import { makeCursorCodec } from "../history/cursor.ts"

export interface HistoryFilters {
  readonly vault: string | null
  readonly startDate: string | null
  readonly endDate: string | null
  readonly includePartial: boolean
}

/**
 * Signed builder-history cursors over the history cursor codec: bound to the route, the referrer
 * and the filters; the signed "last" field is the last date served (pages hold whole dates).
 */
export const makeHistoryCursors = (key?: Uint8Array) => {
  const codec = makeCursorCodec(key)
  const scopeOf = (referrer: string, filters: HistoryFilters) =>
    JSON.stringify(["referrerHistory", referrer, filters.vault, filters.startDate, filters.endDate, filters.includePartial])
  return {
    encode: (referrer: string, filters: HistoryFilters, lastDate: string): string =>
      codec.encode({ scope: scopeOf(referrer, filters), lastDate }),
    decode: (referrer: string, filters: HistoryFilters, cursor: string): Either.Either<string, BadRequest> =>
      codec.decode(cursor, scopeOf(referrer, filters))
  }
}
