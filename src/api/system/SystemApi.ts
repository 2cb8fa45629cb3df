import * as HttpApiEndpoint from "@effect/platform/HttpApiEndpoint"
import * as HttpApiGroup from "@effect/platform/HttpApiGroup"
import * as OpenApi from "@effect/platform/OpenApi"
import { Schema } from "effect"
import { ServiceStatusBody } from "./serviceStatus.ts"
import { NotReadyResponse, StatusBody } from "./statusBody.ts"
import { StatusHistoryBody } from "./statusHistoryBody.ts"

export const HealthBody = Schema.Struct({ status: Schema.Literal("ok"), version: Schema.String }).annotations({
  identifier: "Health"
})

/** Operational endpoints: liveness of the process and readiness of the data. */
export const SystemApi = HttpApiGroup.make("system")
  .add(
    HttpApiEndpoint.get("health", "/health")
      .addSuccess(HealthBody)
      .annotate(OpenApi.Summary, "The process is up and serving HTTP (data readiness is /ready)")
  )
  .add(
    HttpApiEndpoint.get("status", "/status")
      .addSuccess(ServiceStatusBody)
      .annotate(OpenApi.Summary, "Projection status and lag, history backfill, daily rollup and checkpoint age")
  )
  .add(
    HttpApiEndpoint.get("statusHistory", "/status/history")
      .addSuccess(StatusHistoryBody)
      .annotate(OpenApi.Summary, "The last hour of lag, request rate and WebSocket connections, sampled every 10 s in memory (the ops page's charts)")
  )
  .add(
    HttpApiEndpoint.get("ready", "/ready")
      .addSuccess(StatusBody)
      .addError(NotReadyResponse)
      .annotate(OpenApi.Summary, "200 when the projection is live, else 503 with Retry-After and the status")
  )
  .annotate(OpenApi.Title, "System")
