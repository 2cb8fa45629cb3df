import { Either } from "effect"
import type { FlowPosition } from "../../../services/CohortEventLog.ts"
import { BadRequest } from "../errors.ts"
import { makeCursorCodec } from "../history/cursor.ts"

const invalid = new BadRequest({ code: "INVALID_CURSOR", message: "cursor: not a flows position this server issued; start again without it" })

/**
 * Signed flow cursors over the history cursor codec: the scope binds a cursor to the route, the
 * referrer and the date window; the signed "last" field is the keyset of the last flow served.
 */
export const makeFlowCursors = (key?: Uint8Array) => {
  const codec = makeCursorCodec(key)
  const scopeOf = (referrer: string, startDate: string | null, endDate: string | null) =>
    JSON.stringify(["flows", referrer, startDate, endDate])
  return {
    encode: (referrer: string, startDate: string | null, endDate: string | null, position: FlowPosition): string =>
      codec.encode({
        scope: scopeOf(referrer, startDate, endDate),
        lastDate: JSON.stringify([position.slot, position.signature, position.eventIndex])
      }),
    decode: (referrer: string, startDate: string | null, endDate: string | null, cursor: string): Either.Either<FlowPosition, BadRequest> =>
      Either.flatMap(codec.decode(cursor, scopeOf(referrer, startDate, endDate)), (last) => {
        try {
          const [slot, signature, eventIndex] = JSON.parse(last) as [unknown, unknown, unknown]
          return Number.isSafeInteger(slot) && typeof signature === "string" && Number.isSafeInteger(eventIndex)
            ? Either.right({ slot: slot as number, signature, eventIndex: eventIndex as number })
            : Either.left(invalid)
        } catch {
          return Either.left(invalid)
        }
      })
  }
}
