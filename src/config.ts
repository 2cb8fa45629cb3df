import { Config, type ConfigError, LogLevel, Option, Redacted } from "effect"

export type Cluster = "mainnet" | "devnet" | "sandbox"
export type LogFormat = "pretty" | "json"

export interface AppConfig {
  readonly host: string
  readonly port: number
  readonly databaseUrl: Option.Option<Redacted.Redacted>
  readonly rpcUrl: Option.Option<string>
  readonly rpcWsUrl: Option.Option<string>
  readonly cluster: Cluster
  readonly dataDir: string
  readonly logLevel: LogLevel.LogLevel
  readonly logFormat: LogFormat
}

const url = (name: string) =>
  Config.string(name).pipe(
    Config.validate({
      message: "Expected a URL such as scheme://host:port",
      validation: (value) => URL.canParse(value)
    })
  )

const cluster = Config.literal("mainnet", "devnet", "sandbox")("CLUSTER")

export const appConfig: Config.Config<AppConfig> = Config.all({
  host: Config.string("HOST").pipe(Config.withDefault("127.0.0.1")),
  port: Config.integer("PORT").pipe(
    Config.validate({
      message: "Expected a port number from 0 to 65535 (0 picks a free port)",
      validation: (port) => port >= 0 && port <= 65535
    }),
    Config.withDefault(8080)
  ),
  databaseUrl: Config.option(
    Config.string("DATABASE_URL").pipe(
      Config.validate({
        message: "Expected postgres://user:password@host:port/database (the value is not shown: it may hold a password)",
        validation: (value) => {
          if (!URL.canParse(value)) return false
          const parsed = new URL(value)
          return (parsed.protocol === "postgres:" || parsed.protocol === "postgresql:") && parsed.hostname !== ""
        }
      }),
      Config.map((value) => Redacted.make(value))
    )
  ),
  rpcUrl: Config.option(url("RPC_URL")),
  rpcWsUrl: Config.option(url("RPC_WS_URL")),
  clusterSetting: Config.option(cluster),
  dataDir: Config.string("DATA_DIR").pipe(Config.withDefault(".data")),
  logLevel: Config.logLevel("LOG_LEVEL").pipe(Config.withDefault(LogLevel.Info)),
  logFormat: Config.literal("pretty", "json")("LOG_FORMAT").pipe(Config.withDefault("pretty" as const))
}).pipe(
  // Without an RPC endpoint the only chain we can talk to is the sandbox.
  Config.map(({ clusterSetting, ...rest }) => ({
    ...rest,
    cluster: Option.getOrElse(clusterSetting, (): Cluster => (Option.isSome(rest.rpcUrl) ? "mainnet" : "sandbox"))
  }))
)

/** One line naming the offending variable(s), for start-up failures. */
export const describeConfigError = (error: ConfigError.ConfigError): string => {
  const problems: Array<string> = []
  const walk = (e: ConfigError.ConfigError): void => {
    switch (e._op) {
      case "And":
      case "Or":
        walk(e.left)
        walk(e.right)
        return
      case "InvalidData":
      case "MissingData":
      case "SourceUnavailable":
      case "Unsupported":
        problems.push(`${e.path.join(".")}: ${e.message}`)
    }
  }
  walk(error)
  return `invalid configuration: ${problems.join("; ")}`
}
