import { Effect, Option } from "effect"
import { IngestionProgress } from "../../../services/IngestionProgress.ts"
import { ServiceStatusBody, toServiceStatusBody } from "./serviceStatus.ts"
import { currentRole, Leadership } from "../../../services/Leadership.ts"
import { Projection } from "../../../services/Projection.ts"
import { isLive, type ProjectionStatus } from "../../domain/status.ts"
import { VERSION } from "../../version.ts"
import { Api } from "../Api.ts"
import { implementGroup } from "../handlers.ts"
import { PreEncoded } from "../preEncoded.ts"
import { HealthBody } from "./SystemApi.ts"
import { NotReady, StatusBody, toStatusBody } from "./statusBody.ts"
import { StatusHistory } from "../../../services/StatusHistory.ts"
import { StatusHistoryBody, toStatusHistoryBody } from "./statusHistoryBody.ts"

export const SystemHandlersLive = implementGroup(
  Api,
  "system",
  Effect.gen(function*() {
    const projection = yield* Projection
    const work = yield* Effect.serviceOption(IngestionProgress)
    const leadership = yield* Effect.serviceOption(Leadership)
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
    // `/status` adds the background work: encoded again when the status, a report or the second changes.
    const encodeServiceStatus = PreEncoded.encoder(ServiceStatusBody)
    let serviceKey = ""
    let serviceStatus: ProjectionStatus | null = null
    let serviceBody = new PreEncoded("")
    const serviceStatusBody = (status: ProjectionStatus): PreEncoded => {
      const nowSeconds = Math.floor(Date.now() / 1000)
      const role = currentRole(leadership)
      const key = `${Option.isSome(work) ? work.value.version() : ""} ${nowSeconds} ${role}`
      if (status !== serviceStatus || key !== serviceKey) {
        const reports = Option.isSome(work)
          ? { backfill: work.value.backfill(), rollup: work.value.rollup(), checkpoint: work.value.checkpoint(), role }
          : { backfill: null, rollup: null, checkpoint: null, role }
        serviceBody = encodeServiceStatus(toServiceStatusBody(status, reports, nowSeconds))
        serviceStatus = status
        serviceKey = key
      }
      return serviceBody
    }
    // without a sampler (test gateways) the history is empty
    const history = yield* Effect.serviceOption(StatusHistory)
    const encodeHistory = PreEncoded.encoder(StatusHistoryBody)
    let lastSample: unknown = undefined
    let historyBody = encodeHistory(toStatusHistoryBody(10, []))
    const statusHistoryBody = (): PreEncoded => {
      if (Option.isNone(history)) return historyBody
      const samples = history.value.samples()
      const newest = samples[samples.length - 1]
      if (newest !== lastSample) {
        historyBody = encodeHistory(toStatusHistoryBody(history.value.intervalSeconds, samples))
        lastSample = newest
      }
      return historyBody
    }
    return {
      health: () => Effect.succeed(health),
      statusHistory: () => Effect.succeed(statusHistoryBody()),
      // Synchronous reads: the transport answers them without starting a fiber.
      status: () => Effect.succeed(serviceStatusBody(projection.currentStatus())),
      ready: () => ready(projection.currentStatus())
    }
  })
)
