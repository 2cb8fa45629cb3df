import { Config, Option, type Redacted } from "effect"

export interface SharedLimitsConfig {
  /** `auto`: shared when DATABASE_URL names a server (several instances can use it), else in memory. */
  readonly setting: "auto" | "true" | "false"
  /** The largest lease an instance takes of a window, in percent of the limit. */
  readonly leasePercent: number
}

/** SHARED_LIMITS (auto | true | false) and QUOTA_LEASE_PERCENT (default 1). */
export const sharedLimitsConfig: Config.Config<SharedLimitsConfig> = Config.all({
  setting: Config.literal("auto", "true", "false")("SHARED_LIMITS").pipe(Config.withDefault("auto" as const)),
  leasePercent: Config.number("QUOTA_LEASE_PERCENT").pipe(
    Config.validate({ message: "Expected a percentage above 0, at most 100", validation: (n) => n > 0 && n <= 100 }),
    Config.withDefault(1)
  )
})

/**
 * Whether quotas, build meters and WebSocket connections are counted in PostgreSQL across instances:
 * with the embedded database only one instance can run, so `auto` keeps counting in memory there.
 */
export const limitsAreShared = (config: SharedLimitsConfig, databaseUrl: Option.Option<Redacted.Redacted>): boolean =>
  config.setting === "true" || (config.setting === "auto" && Option.isSome(databaseUrl))
