import { Either } from "effect"
import type { PayoutPosition } from "../../../services/ReferrerPayouts.ts"
import { BadRequest } from "../errors.ts"
import { makeCursorCodec } from "../history/cursor.ts"

const invalid = new BadRequest({ code: "INVALID_CURSOR", message: "cursor: not a payouts position this server issued; start again without it" })

/**
 * Signed payout cursors over the history cursor codec: the scope binds a cursor to the route and
 * referrer, the signed "last" field carries the keyset position of the last payout served.
 */
export const makePayoutCursors = (key?: Uint8Array) => {
  const codec = makeCursorCodec(key)
  const scopeOf = (referrer: string) => JSON.stringify(["payouts", referrer])
  return {
    encode: (referrer: string, position: PayoutPosition): string =>
      codec.encode({ scope: scopeOf(referrer), lastDate: JSON.stringify([position.slot, position.signature, position.eventIndex]) }),
    decode: (referrer: string, cursor: string): Either.Either<PayoutPosition, BadRequest> =>
      Either.flatMap(codec.decode(cursor, scopeOf(referrer)), (last) => {
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
