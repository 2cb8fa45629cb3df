import { Schema } from "effect"
import type { ProjectionStatus } from "../../domain/status.ts"
import { codeLiteral } from "../../errors/codeLiteral.ts"
import { errorClassAnnotations, errorResponse } from "../errorResponse.ts"
import { AsOf, Slot } from "../schemas.ts"

export const ProjectionPhase = Schema.Literal("starting", "restoring", "catching_up", "live", "degraded")

const statusFields = {
  status: ProjectionPhase,
  asOf: Schema.NullOr(AsOf),
  chainSlot: Schema.NullOr(Slot),
  lagSlots: Schema.NullOr(Schema.Int),
  lagSeconds: Schema.NullOr(Schema.Number),
  checkpointSlot: Schema.NullOr(Slot),
  reason: Schema.NullOr(Schema.String),
  /** Scheme, host and port only: RPC URLs often carry an API key in the path or query. */
  rpcUrl: Schema.NullOr(Schema.String),
  wsUrl: Schema.NullOr(Schema.String)
}

/** The projection's status and lag, for operators and load balancers (`/status`, `/ready`). */
export const StatusBody = Schema.Struct(statusFields).annotations({ identifier: "ProjectionStatus" })
export type StatusBody = typeof StatusBody.Type

/** Seconds a client should wait before asking `/ready` again. */
export const READY_RETRY_AFTER_SECONDS = 5

const NotReadyCode = codeLiteral("PROJECTION_UNAVAILABLE")

/** `/ready` while the projection is not live: the status body plus the error envelope. */
export class NotReady extends Schema.TaggedError<NotReady>()(
  "NotReady",
  {
    code: NotReadyCode,
    message: Schema.String,
    retryAfterSeconds: Schema.Int,
    ...statusFields
  },
  errorClassAnnotations(NotReadyCode, "The projection is not live yet; the body says why")
) {
  static readonly of = (body: StatusBody): NotReady =>
    new NotReady({
      ...body,
      code: "PROJECTION_UNAVAILABLE",
      retryAfterSeconds: READY_RETRY_AFTER_SECONDS,
      message: `the projection is ${body.status.replace("_", " ")}; retry in ${READY_RETRY_AFTER_SECONDS} s`
    })
}
export const NotReadyResponse = errorResponse(NotReady)

const originOnly = (url: string | null): string | null => {
  if (url === null) return null
  try {
    return new URL(url).origin
  } catch {
    return null
  }
}

export const toStatusBody = (status: ProjectionStatus): StatusBody => ({
  status: status.status,
  asOf: status.asOf,
  chainSlot: status.chainSlot,
  lagSlots: status.lagSlots,
  lagSeconds: status.lagSeconds,
  checkpointSlot: status.checkpointSlot,
  reason: status.reason,
  rpcUrl: originOnly(status.rpcUrl),
  wsUrl: originOnly(status.wsUrl)
})
