import * as NodeSdk from "@effect/opentelemetry/NodeSdk"
import { OTLPTraceExporter } from "@opentelemetry/exporter-trace-otlp-http"
import { BatchSpanProcessor } from "@opentelemetry/sdk-trace-base"
import { Layer } from "effect"
import type { TracingConfig } from "../../src/telemetry/tracingConfig.ts"
import { VERSION } from "../../src/version.ts"

/**
 * Effect's spans (requests, builds, RPC calls, SQL) exported over OTLP/HTTP to the endpoint the
 * standard variables name. Off, nothing is installed: spans stay Effect's in-process no-ops.
 */
export const TracingLive = (config: TracingConfig): Layer.Layer<never> =>
  config.enabled
    ? Layer.discard(
      NodeSdk.layer(() => ({
        resource: { serviceName: config.serviceName, serviceVersion: VERSION },
        spanProcessor: new BatchSpanProcessor(new OTLPTraceExporter())
      }))
    )
    : Layer.empty
