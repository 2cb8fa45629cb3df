import { Effect, Layer } from "effect"
import { Traffic } from "../../services/Traffic.ts"
import { HttpServer } from "./HttpServer.ts"

/** The uWS app's counters: requests received by its routes, WebSocket connections open. */
export const TrafficLive = Layer.effect(
  Traffic,
  Effect.map(HttpServer, ({ traffic }) => ({ read: () => ({ requests: traffic.requests, wsConnections: traffic.wsConnections }) }))
)
