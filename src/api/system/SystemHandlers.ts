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
    const health = PreEncoded.encoder(HealthBody)({ status: "ok", version: VERSION })
    const encodeStatus = PreEncoded.encoder(StatusBody)
    // The projection hands out the same status object until it changes: encode once per change.
    let lastStatus: ProjectionStatus | null = null
    let lastBody = new PreEncoded("")
    const statusBody = (status: ProjectionStatus): PreEncoded => {
      if (status !== lastStatus) {
        lastBody = encodeStatus(toStatusBody(status))
        lastStatus = status
      }
      return lastBody
    }
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
