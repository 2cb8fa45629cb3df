import { Either } from "effect"
import { BadRequest } from "../errors.ts"
import { addDays } from "../history/utcDate.ts"

/** A window of whole UTC days in unix seconds: `from` inclusive, `until` exclusive (null: open). */
export interface FlowWindow {
  readonly from: number | null
  readonly until: number | null
}

const midnight = (date: string): number => Date.parse(`${date}T00:00:00Z`) / 1000

/** `startDate`..`endDate` inclusive (UTC days, already validated as dates); a reversed range is a 400. */
export const flowWindow = (startDate: string | null, endDate: string | null): Either.Either<FlowWindow, BadRequest> =>
  startDate !== null && endDate !== null && startDate > endDate
    ? Either.left(new BadRequest({ code: "INVALID_QUERY", message: `startDate ${startDate} is after endDate ${endDate}` }))
    : Either.right({
      from: startDate === null ? null : midnight(startDate),
      until: endDate === null ? null : midnight(addDays(endDate, 1))
    })
