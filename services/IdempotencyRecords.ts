import { Context, type Effect } from "effect"

export type IdempotencyClaim =
  | { readonly _tag: "Claimed" }
  | { readonly _tag: "InProgress" }
  | { readonly _tag: "Mismatch" }
  | { readonly _tag: "Answered"; readonly status: number; readonly body: unknown }

/**
 * Answers of control-plane POSTs by `Idempotency-Key`, per organization. `claim` records the key
 * with the request's hash (or reports what is there); `answer` stores the answer given; `release`
 * forgets a claim whose request failed, so that a retry runs again. A store failure is a defect.
 */
export class IdempotencyRecords extends Context.Tag("IdempotencyRecords")<
  IdempotencyRecords,
  {
    readonly claim: (organizationId: string, key: string, requestHash: string) => Effect.Effect<IdempotencyClaim>
    readonly answer: (organizationId: string, key: string, status: number, body: unknown) => Effect.Effect<void>
    readonly release: (organizationId: string, key: string) => Effect.Effect<void>
  }
>() {}
