import { Config, ConfigError, Either, Option } from "effect"

export interface MetricsConfig {
  readonly host: string
  /** Null: no metrics listener. */
  readonly port: number | null
}

/** The default port of OpenTelemetry's Prometheus exporter. */
export const DEFAULT_METRICS_PORT = 9464

/**
 * `METRICS_HOST` (default loopback, so the metrics never share the public API's exposure by
 * accident) and `METRICS_PORT` (default 9464, `0` picks a free port, `off` disables the listener).
 */
export const metricsConfig: Config.Config<MetricsConfig> = Config.all({
  host: Config.string("METRICS_HOST").pipe(Config.withDefault("127.0.0.1")),
  port: Config.option(Config.string("METRICS_PORT")).pipe(
    Config.mapOrFail((setting) => {
      const value = Option.getOrElse(setting, () => String(DEFAULT_METRICS_PORT)).trim()
      if (value === "off") return Either.right(null)
      const port = /^\d{1,5}$/.test(value) ? Number(value) : NaN
      return port >= 0 && port <= 65535
        ? Either.right(port)
        : Either.left(ConfigError.InvalidData(["METRICS_PORT"], "Expected a port number from 0 to 65535, or off"))
    })
  )
})
