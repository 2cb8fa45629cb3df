import { createHmac, randomBytes, timingSafeEqual } from "node:crypto"
import { Either } from "effect"
import { BadRequest } from "../errors.ts"

/** What a page cursor pins: the vault and filters it was issued for, and the last date served. */
export interface CursorState {
  readonly scope: string
  readonly lastDate: string
}

const invalid = new BadRequest({
  code: "INVALID_CURSOR",
  message: "cursor: not one this server issued for this route and these filters; start again without it"
})

/**
 * Opaque, tamper-evident keyset cursors: `base64url(payload).base64url(HMAC-SHA256(payload))[..16]`.
 * The key is per process unless configured, so cursors of a restarted or other instance are refused
 * as INVALID_CURSOR (clients restart the listing) rather than trusted.
 */
export const makeCursorCodec = (key: Uint8Array = randomBytes(32)) => {
  const sign = (payload: string) => createHmac("sha256", key).update(payload).digest().subarray(0, 16)
  return {
    encode: (state: CursorState): string => {
      const payload = JSON.stringify([state.scope, state.lastDate])
      return `${Buffer.from(payload).toString("base64url")}.${sign(payload).toString("base64url")}`
    },
    /** The cursor's last date, if it is genuine and was issued for `scope`. */
    decode: (cursor: string, scope: string): Either.Either<string, BadRequest> => {
      const [body, mac, extra] = cursor.split(".")
      if (body === undefined || mac === undefined || extra !== undefined) return Either.left(invalid)
      const payload = Buffer.from(body, "base64url").toString()
      const expected = sign(payload)
      const given = Buffer.from(mac, "base64url")
      if (given.length !== expected.length || !timingSafeEqual(given, expected)) return Either.left(invalid)
      try {
        const [cursorScope, lastDate] = JSON.parse(payload) as [unknown, unknown]
        return cursorScope === scope && typeof lastDate === "string" ? Either.right(lastDate) : Either.left(invalid)
      } catch {
        return Either.left(invalid)
      }
    }
  }
}
export type CursorCodec = ReturnType<typeof makeCursorCodec>
