import { Cause, Effect, Exit, Option } from "effect"
import type { WsErrorCode } from "../../src/errors/codes.ts"
import { errorFrame } from "../../src/ws/protocol.ts"

/**
 * Counts a `subscribe` against the partner key like a REST request: the same `PartnerKey`
 * middleware run again on the upgrade request, so the key's quota applies and a key revoked since
 * the upgrade stops subscribing. An `Exit` when it decides at once (cached key, in-memory quota).
 */
export type SubscribeMeter = () => Effect.Effect<unknown, unknown>

export const isDecided = (admission: Effect.Effect<unknown, unknown>): admission is Exit.Exit<unknown, unknown> =>
  Exit.isExit(admission)

const KEY_CODES: ReadonlySet<string> = new Set<WsErrorCode>(["UNAUTHORIZED", "RATE_LIMITED"])

/** Null when the subscribe may go on; otherwise the `error` frame that refuses it. */
export const refusalFrame = (id: unknown, admission: Exit.Exit<unknown, unknown>): string | null => {
  if (Exit.isSuccess(admission)) return null
  const failure = Option.getOrUndefined(Cause.failureOption(admission.cause)) as { code?: unknown; message?: unknown } | undefined
  if (failure !== undefined && typeof failure.code === "string" && KEY_CODES.has(failure.code) && typeof failure.message === "string") {
    return errorFrame({ id, code: failure.code as WsErrorCode, message: failure.message })
  }
  return errorFrame({ id, code: "INTERNAL_ERROR", message: "the API key could not be checked; subscribe again" })
}
