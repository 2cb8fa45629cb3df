import { Context } from "effect"
import type { TrafficReading } from "../src/domain/statusSeries.ts"

/** What the transport has served: HTTP requests answered since start, WebSocket connections open now. */
export class Traffic extends Context.Tag("Traffic")<Traffic, { readonly read: () => TrafficReading }>() {}
