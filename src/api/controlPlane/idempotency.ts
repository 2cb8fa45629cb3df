import { createHash } from "node:crypto"
import { Effect } from "effect"
import { IdempotencyRecords } from "../../../services/IdempotencyRecords.ts"
import type { RequestInfo } from "../handlers.ts"
import { WithHeaders } from "../withHeaders.ts"
import { ControlPlaneBadRequest, ControlPlaneConflict, IdempotencyKeyReused } from "./errors.ts"
import { AuthenticatedWallet, type SignedInWallet } from "./WalletSession.ts"

const KEY = /^[\x21-\x7e]{1,255}$/

const invalidKey = new ControlPlaneBadRequest({
  code: "IDEMPOTENCY_KEY_INVALID",
  message: "Idempotency-Key must be 1 to 255 printable ASCII characters without spaces"
})
const inProgress = new ControlPlaneConflict({
  code: "IDEMPOTENCY_IN_PROGRESS",
  message: "a request with this Idempotency-Key is still running; retry shortly"
})
const reused = new IdempotencyKeyReused({
  code: "IDEMPOTENCY_KEY_REUSED",
  message: "this Idempotency-Key was used with another request (method, path or body); use a new key"
})

export const REPLAYED_HEADER = "idempotent-replayed"

/** One request at most per key and organization (see `makeIdempotency`). */
const onceWith = (records: IdempotencyRecords["Type"]) =>
  <A, E, R>(
    organizationId: string,
    request: RequestInfo,
    payload: unknown,
    run: Effect.Effect<A, E, R>,
    stored: (answer: A) => A
  ): Effect.Effect<A | WithHeaders<A>, E | ControlPlaneBadRequest | ControlPlaneConflict | IdempotencyKeyReused, R> => {
    const key = request.header("idempotency-key")
    if (key === undefined) return run
    if (!KEY.test(key)) return Effect.fail(invalidKey)
    const hash = createHash("sha256").update(`${request.method} ${request.path}\n${JSON.stringify(payload ?? null)}`).digest("hex")
    type Outcome = Effect.Effect<A | WithHeaders<A>, E | ControlPlaneConflict | IdempotencyKeyReused, R>
    return Effect.flatMap(records.claim(organizationId, key, hash), (claim): Outcome => {
      switch (claim._tag) {
        case "Mismatch":
          return Effect.fail(reused)
        case "InProgress":
          return Effect.fail(inProgress)
        case "Answered":
          return Effect.succeed(new WithHeaders(claim.body as A, [[REPLAYED_HEADER, "true"]]))
        case "Claimed":
          return run.pipe(
            Effect.tap((answer) => records.answer(organizationId, key, 200, stored(answer))),
            Effect.onError(() => records.release(organizationId, key))
          )
      }
    })
  }

/**
 * Runs a control-plane POST at most once per `Idempotency-Key` and organization: a retry with the
 * same method, path and body gets the stored answer (with `Idempotent-Replayed: true`), the same key
 * with another request 422, a retry while the first still runs 409. A failed request stores
 * nothing. `stored` is what is kept of the answer (a key's plaintext is blanked out).
 */
export const makeIdempotency = Effect.map(IdempotencyRecords, (records) => {
  const once = onceWith(records)
  return <A, E, R>(
    request: RequestInfo,
    payload: unknown,
    change: (who: SignedInWallet) => Effect.Effect<A, E, R>,
    stored: (answer: A) => A = (answer) => answer
  ): Effect.Effect<A | WithHeaders<A>, E | ControlPlaneBadRequest | ControlPlaneConflict | IdempotencyKeyReused, R | AuthenticatedWallet> =>
    Effect.flatMap(AuthenticatedWallet, (who) => once(who.organizationId, request, payload, change(who), stored))
})
