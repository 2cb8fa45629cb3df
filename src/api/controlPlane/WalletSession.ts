import * as HttpApiMiddleware from "@effect/platform/HttpApiMiddleware"
import * as HttpApiSecurity from "@effect/platform/HttpApiSecurity"
import { Context, Schema } from "effect"
import { OriginRefusedResponse, SessionRequiredResponse } from "./errors.ts"

/** The wallet whose session cookie authenticated a control-plane request. */
export interface SignedInWallet {
  readonly sessionId: string
  readonly tokenHash: string
  readonly wallet: string
  readonly organizationId: string
}

export class AuthenticatedWallet extends Context.Tag("vault-gateway/AuthenticatedWallet")<AuthenticatedWallet, SignedInWallet>() {}

/**
 * The wallet-session requirement of the control plane (spec §5, third context). The session comes
 * only from its cookie (`vg_session`, `__Host-vg_session` on https); a partner key is not accepted
 * (401 `SESSION_REQUIRED`). A state-changing request must carry `Origin` equal to the configured
 * public origin (403 `ORIGIN_MISMATCH`), so no other site can act with a browser's cookie.
 */
export class WalletSession extends HttpApiMiddleware.Tag<WalletSession>()("WalletSession", {
  failure: Schema.Union(SessionRequiredResponse, OriginRefusedResponse),
  provides: AuthenticatedWallet,
  security: { cookie: HttpApiSecurity.apiKey({ in: "cookie", key: "vg_session" }) }
}) {}
