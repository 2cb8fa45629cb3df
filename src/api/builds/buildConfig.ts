import { Config } from "effect"
import type { BuildMeterOptions } from "./BuildMeterLive.ts"

/** BUILD_RATE_LIMIT builds per BUILD_RATE_WINDOW_SECONDS per client IP; TRUST_PROXY=true reads X-Forwarded-For. */
export const buildMeterConfig: Config.Config<BuildMeterOptions> = Config.all({
  limit: Config.integer("BUILD_RATE_LIMIT").pipe(Config.withDefault(20), Config.validate({ message: "must be at least 1", validation: (n) => n >= 1 })),
  windowSeconds: Config.integer("BUILD_RATE_WINDOW_SECONDS").pipe(Config.withDefault(60), Config.validate({ message: "must be at least 1", validation: (n) => n >= 1 })),
  trustProxy: Config.boolean("TRUST_PROXY").pipe(Config.withDefault(false))
}).pipe(Config.map(({ limit, windowSeconds, trustProxy }) => ({ perIp: { limit, windowSeconds }, trustProxy })))

/**
 * BUILD_SIMULATION (default true): preflight every accepted build with the node's
 * `simulateTransaction` and size its compute-unit limit from the units consumed; false keeps the
 * per-instruction estimate (no RPC call on the build path).
 */
export const buildSimulationConfig: Config.Config<boolean> = Config.boolean("BUILD_SIMULATION").pipe(Config.withDefault(true))
