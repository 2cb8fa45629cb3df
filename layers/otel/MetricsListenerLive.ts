import http from "node:http"
import type { AddressInfo } from "node:net"
import { monitorEventLoopDelay } from "node:perf_hooks"
import * as Metrics from "@effect/opentelemetry/Metrics"
import * as Resource from "@effect/opentelemetry/Resource"
import { PrometheusExporter } from "@opentelemetry/exporter-prometheus"
import { Context, Data, Effect, Layer } from "effect"
import { Projection } from "../../services/Projection.ts"
import type { MetricsConfig } from "../../src/telemetry/metricsConfig.ts"
import { refreshProcessGauges, refreshProjectionGauges } from "../../src/telemetry/scrapeGauges.ts"
import { VERSION } from "../../src/version.ts"

/** The metrics listener cannot bind its address (a port in use, an address not on this machine). */
export class MetricsListenerError extends Data.TaggedError("MetricsListenerError")<{ readonly message: string }> {}

/** Where the metrics listener is bound (its port is the OS's pick when METRICS_PORT=0). */
export class MetricsListener extends Context.Tag("MetricsListener")<MetricsListener, { readonly url: string }>() {}

const listen = (server: http.Server, host: string, port: number) =>
  Effect.acquireRelease(
    Effect.async<AddressInfo, Error>((resume) => {
      server.once("error", (error) => resume(Effect.fail(error)))
      server.listen(port, host, () => resume(Effect.succeed(server.address() as AddressInfo)))
    }),
    () => Effect.async<void>((resume) => {
      server.close(() => resume(Effect.void))
      server.closeAllConnections()
    })
  )

/**
 * `GET /metrics` in the Prometheus text format on its own listener: the Effect metrics through
 * OpenTelemetry's Prometheus exporter, plus gauges refreshed at scrape time (projection lag and
 * phase, checkpoint age, memory, event-loop delay).
 */
export const MetricsListenerLive = (config: MetricsConfig & { readonly port: number }) =>
  Layer.scoped(
    MetricsListener,
    Effect.gen(function*() {
      const projection = yield* Projection
      const exporter = new PrometheusExporter({ preventServerStart: true, withoutScopeInfo: true })
      yield* Metrics.registerProducer(yield* Metrics.makeProducer, () => exporter)
      const delay = monitorEventLoopDelay({ resolution: 10 })
      delay.enable()
      yield* Effect.addFinalizer(() => Effect.sync(() => delay.disable()))
      const server = http.createServer((request, response) => {
        const path = (request.url ?? "/").split("?", 1)[0]
        response.setHeader("x-content-type-options", "nosniff")
        if (path !== "/metrics") {
          response.writeHead(404, { "content-type": "text/plain" }).end("the metrics are at /metrics\n")
        } else if (request.method !== "GET" && request.method !== "HEAD") {
          response.writeHead(405, { allow: "GET, HEAD" }).end()
        } else {
          refreshProjectionGauges(projection.currentStatus(), Date.now() / 1000)
          refreshProcessGauges(delay)
          exporter.getMetricsRequestHandler(request, response)
        }
      })
      const address = yield* listen(server, config.host, config.port).pipe(
        Effect.mapError((error) =>
          new MetricsListenerError({ message: `the metrics listener cannot bind ${config.host}:${config.port} (METRICS_PORT): ${error.message}` })
        )
      )
      const host = address.family === "IPv6" ? `[${address.address}]` : address.address
      const url = `http://${host}:${address.port}/metrics`
      yield* Effect.logInfo(`metrics on ${url}`)
      return { url }
    })
  ).pipe(Layer.provide(Resource.layer({ serviceName: "vault-gateway", serviceVersion: VERSION })))
