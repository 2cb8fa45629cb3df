import { Effect } from "effect"
import { Organizations } from "../../../services/Organizations.ts"
import { WalletSessions } from "../../../services/WalletSessions.ts"
import { clearedSessionCookie, hashSessionToken, newSessionToken, sessionCookie } from "../../domain/controlPlane/sessionCookie.ts"
import { SIGN_IN_STATEMENT } from "../../domain/controlPlane/signIn.ts"
import { Api } from "../Api.ts"
import type { RequestInfo } from "../handlers.ts"
import { implementGroup } from "../handlers.ts"
import { WithHeaders } from "../withHeaders.ts"
import { type ControlPlaneSettings, originText } from "./controlPlaneConfig.ts"
import { ControlPlaneNotFound, OriginRefused } from "./errors.ts"
import { makeSignInFlow } from "./signInFlow.ts"
import { organizationView, sessionView } from "./views.ts"
import { AuthenticatedWallet } from "./WalletSession.ts"
import { isOwnOrigin } from "./WalletSessionLive.ts"

/**
 * Sign-in and sessions. Nonce and verify carry no cookie, but a browser's `Origin`, when present,
 * must be ours (so no other site can sign a browser into an attacker's wallet).
 */
export const AuthHandlersLive = (settings: ControlPlaneSettings) =>
  implementGroup(
    Api,
    "auth",
    Effect.gen(function*() {
      const flow = yield* makeSignInFlow(settings)
      const sessions = yield* WalletSessions
      const organizations = yield* Organizations
      const cookie = { secure: settings.secureCookie }
      const foreignOrigin = new OriginRefused({ code: "ORIGIN_MISMATCH", message: `sign-in requests from a browser must come from ${originText(settings)}` })
      const checkOrigin = (request: RequestInfo) =>
        request.header("origin") === undefined || isOwnOrigin(settings, request.header("origin")) ? Effect.void : Effect.fail(foreignOrigin)

      return {
        nonce: ({ request }) =>
          checkOrigin(request).pipe(
            Effect.zipRight(flow.meter(request)),
            Effect.zipRight(flow.issue("sign-in", null, SIGN_IN_STATEMENT)),
            Effect.map((input) => ({ success: true as const, data: input }))
          ),
        verify: ({ payload, request }) =>
          Effect.gen(function*() {
            yield* checkOrigin(request)
            yield* flow.meter(request)
            const wallet = yield* flow.verify("sign-in", null, payload)
            const { created, organization } = yield* organizations.ensureOwned(wallet)
            const token = newSessionToken()
            const session = yield* sessions.create(hashSessionToken(token), wallet, settings.lifetimes)
            yield* organizations.record({ organizationId: organization.id, wallet }, "session.signed_in", { sessionId: session.id })
            return new WithHeaders(
              {
                success: true as const,
                data: {
                  wallet,
                  organization: organizationView(organization),
                  organizationCreated: created,
                  session: sessionView(session, settings.lifetimes, session.id)
                }
              },
              [["set-cookie", sessionCookie(cookie, token, settings.lifetimes.maxSeconds)]]
            )
          }),
        session: () =>
          Effect.gen(function*() {
            const who = yield* AuthenticatedWallet
            const live = yield* sessions.listOf(who.wallet, settings.lifetimes)
            const organization = yield* organizations.ofOwner(who.wallet)
            const current = live.find((session) => session.id === who.sessionId)
            // both were read a moment ago by the middleware
            if (current === undefined || organization === null) return yield* Effect.die(new Error("the session vanished while read"))
            return {
              success: true as const,
              data: { session: sessionView(current, settings.lifetimes, who.sessionId), organization: organizationView(organization) }
            }
          }),
        logout: () =>
          Effect.gen(function*() {
            const who = yield* AuthenticatedWallet
            yield* sessions.end(who.tokenHash)
            yield* organizations.record(who, "session.signed_out", { sessionId: who.sessionId })
            return new WithHeaders({ success: true as const, data: { ended: true } }, [["set-cookie", clearedSessionCookie(cookie)]])
          }),
        sessions: () =>
          Effect.gen(function*() {
            const who = yield* AuthenticatedWallet
            const live = yield* sessions.listOf(who.wallet, settings.lifetimes)
            return { success: true as const, data: { sessions: live.map((session) => sessionView(session, settings.lifetimes, who.sessionId)) } }
          }),
        endSession: ({ path }) =>
          Effect.gen(function*() {
            const who = yield* AuthenticatedWallet
            if (!(yield* sessions.endById(who.wallet, path.id))) {
              return yield* Effect.fail(new ControlPlaneNotFound({ code: "SESSION_NOT_FOUND", message: "the wallet has no live session with this id" }))
            }
            yield* organizations.record(who, "session.ended", { sessionId: path.id })
            return { success: true as const, data: { ended: true } }
          })
      }
    })
  )
