import { Config, Option } from "effect"

export interface TracingConfig {
  /** Traces are exported only when an OTLP endpoint is configured. */
  readonly enabled: boolean
  readonly serviceName: string
}

/**
 * The standard OpenTelemetry variables: `OTEL_EXPORTER_OTLP_ENDPOINT` (or the traces-only
 * `OTEL_EXPORTER_OTLP_TRACES_ENDPOINT`) turns tracing on, `OTEL_SDK_DISABLED=true` or
 * `OTEL_TRACES_EXPORTER=none` keep it off, `OTEL_SERVICE_NAME` names the service. The exporter
 * reads its other variables (headers, timeouts) itself.
 */
export const tracingConfig: Config.Config<TracingConfig> = Config.all({
  endpoint: Config.option(Config.nonEmptyString("OTEL_EXPORTER_OTLP_ENDPOINT")),
  tracesEndpoint: Config.option(Config.nonEmptyString("OTEL_EXPORTER_OTLP_TRACES_ENDPOINT")),
  disabled: Config.boolean("OTEL_SDK_DISABLED").pipe(Config.withDefault(false)),
  exporter: Config.string("OTEL_TRACES_EXPORTER").pipe(Config.withDefault("otlp")),
  serviceName: Config.string("OTEL_SERVICE_NAME").pipe(Config.withDefault("vault-gateway"))
}).pipe(
  Config.map(({ disabled, endpoint, exporter, serviceName, tracesEndpoint }) => ({
    enabled: !disabled && exporter !== "none" && (Option.isSome(endpoint) || Option.isSome(tracesEndpoint)),
    serviceName
  }))
)
