import { Config } from "effect"
import { defaultWsLimits, type WsLimits } from "./limits.ts"

const positive = (name: string, fallback: number) =>
  Config.integer(name).pipe(
    Config.validate({ message: "Expected a whole number >= 1", validation: (n) => n >= 1 }),
    Config.withDefault(fallback)
  )

/** `/v2/stream` limits from the environment (defaults in `defaultWsLimits`). */
export const wsLimitsConfig: Config.Config<WsLimits> = Config.all({
  maxTopicsPerConnection: positive("WS_MAX_TOPICS", defaultWsLimits.maxTopicsPerConnection),
  maxConnectionsPerKey: positive("WS_MAX_CONNECTIONS_PER_KEY", defaultWsLimits.maxConnectionsPerKey),
  maxMessageBytes: positive("WS_MAX_MESSAGE_BYTES", defaultWsLimits.maxMessageBytes),
  idleTimeoutSeconds: positive("WS_IDLE_TIMEOUT_SECONDS", defaultWsLimits.idleTimeoutSeconds),
  backpressureBytes: positive("WS_BACKPRESSURE_BYTES", defaultWsLimits.backpressureBytes),
  closeAboveBytes: positive("WS_CLOSE_ABOVE_BYTES", defaultWsLimits.closeAboveBytes)
}).pipe(
  Config.validate({
    message: "WS_CLOSE_ABOVE_BYTES must be above WS_BACKPRESSURE_BYTES",
    validation: (limits) => limits.closeAboveBytes > limits.backpressureBytes
  })
)
