import { Effect, Exit, Layer } from "effect"
import { Organizations } from "../../../services/Organizations.ts"
import { WalletSessions } from "../../../services/WalletSessions.ts"
import { hashSessionToken, sessionTokenOf } from "../../domain/controlPlane/sessionCookie.ts"
import { implementMiddleware } from "../middleware.ts"
import { type ControlPlaneSettings, originText } from "./controlPlaneConfig.ts"
import { OriginRefused, SessionRequired } from "./errors.ts"
import { WalletSession } from "./WalletSession.ts"

const SAFE_METHODS: ReadonlySet<string> = new Set(["GET", "HEAD", "OPTIONS"])

const noSession = new SessionRequired({ code: "SESSION_REQUIRED", message: "sign in with your wallet first (POST /v2/auth/nonce, then /v2/auth/verify)" })
const keyRefused = new SessionRequired({
  code: "SESSION_REQUIRED",
  message: "partner API keys cannot use the control plane; sign in with the organization's wallet"
})
const ended = new SessionRequired({ code: "SESSION_REQUIRED", message: "the session has ended or expired; sign in again" })

/** True when `origin` (an `Origin` header) is the configured public origin. */
export const isOwnOrigin = (settings: ControlPlaneSettings, origin: string | undefined) => origin === originText(settings)

/**
 * The `WalletSession` middleware: the session token from its cookie only (an `x-api-key` or bearer
 * key is refused), `Origin` checked on state-changing methods before any lookup, then the session
 * looked up by the token's hash (restarting its idle clock) and the organization its wallet owns.
 */
export const WalletSessionLive = (settings: ControlPlaneSettings) =>
  Layer.unwrapEffect(
    Effect.gen(function*() {
      const sessions = yield* WalletSessions
      const organizations = yield* Organizations
      const originRefused = new OriginRefused({
        code: "ORIGIN_MISMATCH",
        message: `state-changing control-plane requests must carry Origin: ${originText(settings)}`
      })
      const cookie = { secure: settings.secureCookie }
      return implementMiddleware(WalletSession, (request) => {
        const token = sessionTokenOf(cookie, request.header("cookie"))
        if (token === undefined) {
          const hasKey = request.header("x-api-key") !== undefined || request.header("authorization") !== undefined
          return Exit.fail(hasKey ? keyRefused : noSession)
        }
        if (!SAFE_METHODS.has(request.method) && !isOwnOrigin(settings, request.header("origin"))) return Exit.fail(originRefused)
        const tokenHash = hashSessionToken(token)
        return Effect.gen(function*() {
          const session = yield* sessions.touch(tokenHash, settings.lifetimes)
          if (session === null) return yield* Effect.fail(ended)
          const organization = yield* organizations.ofOwner(session.wallet)
          if (organization === null) return yield* Effect.fail(ended)
          return { provides: { sessionId: session.id, tokenHash, wallet: session.wallet, organizationId: organization.id } }
        })
      })
    })
  )
