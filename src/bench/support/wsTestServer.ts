import { WsStreamLive } from "../../../layers/uws/wsStream.ts"
import type { WsHub } from "../../../layers/uws/wsHub.ts"
import type { ProjectionState } from "../../domain/projection/state.ts"
import type { ProjectionStatus } from "../../domain/status.ts"
import type { WsLimits } from "../../ws/limits.ts"
import { gatewayForTest } from "./httpTestServer.ts"

/** The REST API and `/v2/stream` on one real uWS server, over a `ProjectionTest` the test drives. */
export const streamGatewayForTest = (
  options: {
    readonly initial?: ProjectionStatus
    readonly state?: ProjectionState
    readonly limits?: Partial<WsLimits>
    /** Given the server's hub (to read its counters). */
    readonly observe?: (hub: WsHub) => void
  } = {}
) =>
  gatewayForTest({
    ...(options.initial === undefined ? {} : { initial: options.initial }),
    ...(options.state === undefined ? {} : { state: options.state }),
    extraRoutes: WsStreamLive({
      ...(options.limits === undefined ? {} : { limits: options.limits }),
      ...(options.observe === undefined ? {} : { observe: options.observe })
    })
  })
