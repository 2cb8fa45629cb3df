import { Layer, type Option, type Redacted } from "effect"
import { RateLimiterLive } from "../../layers/memory/RateLimiterLive.ts"
import { KeyConnectionsLive } from "../../layers/postgres/KeyConnectionsLive.ts"
import { SharedRateLimiterLive } from "../../layers/postgres/SharedRateLimiterLive.ts"
import { limitsAreShared, type SharedLimitsConfig } from "../limits/sharedLimitsConfig.ts"

/**
 * The limits as `serve` counts them: in this process (one instance), or in PostgreSQL across every
 * instance on the database (`SHARED_LIMITS`, by default when `DATABASE_URL` is set). The shared
 * layers need the database (`SqlClient`); without them the WebSocket hub counts its own connections.
 */
export const LimitsLive = (config: SharedLimitsConfig, databaseUrl: Option.Option<Redacted.Redacted>) =>
  limitsAreShared(config, databaseUrl)
    ? { shared: true, rateLimiter: SharedRateLimiterLive({ leases: { maxLeaseShare: config.leasePercent / 100 } }), keyConnections: KeyConnectionsLive() }
    : { shared: false, rateLimiter: RateLimiterLive, keyConnections: Layer.empty }
