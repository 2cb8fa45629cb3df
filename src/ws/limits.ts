/** Per-server WebSocket limits (configurable; `defaultWsLimits` otherwise). */
export interface WsLimits {
  readonly maxTopicsPerConnection: number
  readonly maxConnectionsPerKey: number
  /** Larger client frames get a `MESSAGE_TOO_LARGE` error frame. */
  readonly maxMessageBytes: number
  /** Seconds without traffic (pings included) before uWS closes the connection. */
  readonly idleTimeoutSeconds: number
  /** Unsent bytes above which a connection's topics are paused with `resync`. */
  readonly backpressureBytes: number
  /** Unsent bytes above which the connection is closed with 4008 (bounds memory). */
  readonly closeAboveBytes: number
}

export const defaultWsLimits: WsLimits = {
  maxTopicsPerConnection: 200,
  maxConnectionsPerKey: 20,
  maxMessageBytes: 16 * 1024,
  idleTimeoutSeconds: 120,
  backpressureBytes: 1024 * 1024,
  closeAboveBytes: 8 * 1024 * 1024
}

/** Frames up to this size still reach the handler (to answer with an error frame); uWS closes above. */
export const transportPayloadLimit = (limits: WsLimits): number => Math.max(limits.maxMessageBytes * 4, 64 * 1024)

/**
 * uWS's own per-socket limit, above which it drops sends (close frames included). Well above the
 * close threshold, so that a connection the hub closes with 4008 still gets its close frame: this
 * is the hard bound of one connection's unsent bytes.
 */
export const transportBackpressureLimit = (limits: WsLimits): number => limits.closeAboveBytes * 2
