import { Effect } from "effect"
import { Projection } from "../../../services/Projection.ts"
import { isLive, type ProjectionStatus } from "../../domain/status.ts"
import { VERSION } from "../../version.ts"
import { Api } from "../Api.ts"
import { implementGroup } from "../handlers.ts"
import { PreEncoded } from "../preEncoded.ts"
import { HealthBody } from "./SystemApi.ts"
import { NotReady, StatusBody, toStatusBody } from "./statusBody.ts"

export const SystemHandlersLive = implementGroup(
  Api,
  "system",
  Effect.gen(function*() {
    const projection = yield* Projection
    const health = PreEncoded.constant(HealthBody, { status: "ok", version: VERSION })
    // The projection hands out the same status object until it changes: encode once per change.
    const statusBody = PreEncoded.cachedBy(StatusBody, toStatusBody)
    const ready = (status: ProjectionStatus) =>
      isLive(status) ? Effect.succeed(statusBody(status)) : Effect.fail(NotReady.of(toStatusBody(status)))
    return {
      health: () => Effect.succeed(health),
      // Synchronous reads: the transport answers them without starting a fiber.
      status: () => Effect.succeed(statusBody(projection.currentStatus())),
      ready: () => ready(projection.currentStatus())
    }
  })
)
