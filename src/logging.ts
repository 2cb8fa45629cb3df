import { Layer, Logger } from "effect"
import type { AppConfig } from "./config.ts"

/** Structured logs: JSON lines in production, human-readable otherwise. */
export const LoggingLive = (config: Pick<AppConfig, "logFormat" | "logLevel">) =>
  Layer.merge(config.logFormat === "json" ? Logger.json : Logger.pretty, Logger.minimumLogLevel(config.logLevel))
