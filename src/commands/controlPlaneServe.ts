import { Layer } from "effect"
import type { RateLimiter } from "../../services/RateLimiter.ts"
import { RateLimiterLive } from "../../layers/memory/RateLimiterLive.ts"
import { IdempotencyRecordsLive } from "../../layers/postgres/IdempotencyRecordsLive.ts"
import { OrganizationsLive } from "../../layers/postgres/OrganizationsLive.ts"
import { SignInNoncesLive } from "../../layers/postgres/SignInNoncesLive.ts"
import { WalletSessionsLive } from "../../layers/postgres/WalletSessionsLive.ts"
import { AuthHandlersLive } from "../api/controlPlane/AuthHandlers.ts"
import type { ControlPlaneSettings } from "../api/controlPlane/controlPlaneConfig.ts"
import { OrgHandlersLive } from "../api/controlPlane/OrgHandlers.ts"
import { WalletSessionLive } from "../api/controlPlane/WalletSessionLive.ts"

/**
 * The builder control plane as `serve` runs it: handlers of `/v2/auth/*` and `/v2/org/*` and the
 * wallet-session middleware, over Postgres (nonces, sessions, organizations, idempotency records)
 * and a per-IP sign-in meter (in memory unless another limiter is given). Needs the database (`SqlClient`).
 */
export const ControlPlaneLive = <E = never, R = never>(
  settings: ControlPlaneSettings,
  limiter: Layer.Layer<RateLimiter, E, R> = RateLimiterLive as Layer.Layer<RateLimiter, E, R>
) =>
  Layer.mergeAll(AuthHandlersLive(settings), OrgHandlersLive(settings), WalletSessionLive(settings)).pipe(
    Layer.provide(Layer.mergeAll(SignInNoncesLive, WalletSessionsLive, OrganizationsLive, IdempotencyRecordsLive, limiter))
  )
