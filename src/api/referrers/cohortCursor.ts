import type { Either } from "effect"
import type { BadRequest } from "../errors.ts"
import { makeCursorCodec } from "../history/cursor.ts"

/**
 * Signed cohort cursors over the history cursor codec: bound to the route, referrer and vault
 * filter; the signed "last" field is the last position address served.
 */
export const makeCohortCursors = (key?: Uint8Array) => {
  const codec = makeCursorCodec(key)
  const scopeOf = (referrer: string, vault: string | null) => JSON.stringify(["users", referrer, vault])
  return {
    encode: (referrer: string, vault: string | null, lastPosition: string): string =>
      codec.encode({ scope: scopeOf(referrer, vault), lastDate: lastPosition }),
    decode: (referrer: string, vault: string | null, cursor: string): Either.Either<string, BadRequest> =>
      codec.decode(cursor, scopeOf(referrer, vault))
  }
}
