import type uws from "uwebsockets"
import { Context, Effect, Exit, Runtime } from "effect"
import { RateLimited } from "../../src/api/errors.ts"
import type { RequestInfo } from "../../src/api/handlers.ts"
import { middlewareImplementationTag, type MiddlewareRuntime } from "../../src/api/middleware.ts"
import { AuthenticatedPartner, PartnerKey } from "../../src/api/security/PartnerKey.ts"
import { errorToHttp, failureToHttp, globalErrorTable, type HttpFailure } from "./errorMapping.ts"
import { requestIdFor } from "./requestId.ts"
import { JSON_CONTENT_TYPE, writeResponse } from "./respond.ts"
import { countRefusal } from "../../src/telemetry/rateLimitRefusals.ts"

/** The `PartnerKey` middleware the REST routes run, taken from the context to authenticate upgrades. */
export const partnerKeyRuntime = Effect.map(
  Effect.context<never>(),
  (context) => Context.unsafeGet(context, middlewareImplementationTag(PartnerKey)) as MiddlewareRuntime
)

/** An admission decided by a shared count: the upgrade waits for it. */
export interface LaterAdmission {
  readonly later: Effect.Effect<RateLimited | null>
}

export interface UpgradeGate {
  /** Null to accept the key's partner, or the refusal (e.g. over its connection limit); `later` when it must wait. */
  readonly admit: (keyId: string) => RateLimited | null | LaterAdmission
  /** An admission that was counted, but the client went away before the upgrade. */
  readonly abandoned?: (keyId: string) => void
  /** Called corked, still inside the upgrade: must call `res.upgrade`. */
  readonly accept: (
    res: uws.HttpResponse,
    keyId: string,
    upgradeHeaders: UpgradeHeaders,
    context: uws.us_socket_context_t,
    request: RequestInfo
  ) => void
}

export interface UpgradeHeaders {
  readonly key: string
  readonly protocol: string
  readonly extensions: string
}

export const tooManyConnections = (limit: number) => {
  countRefusal("ws-key:")
  return new RateLimited({
    code: "RATE_LIMITED",
    message: `this API key already has ${limit} open WebSocket connections (the limit); close one first`,
    limit,
    remaining: 0,
    reset: Math.ceil(Date.now() / 1000),
    retryAfterSeconds: 5
  })
}

/**
 * The upgrade handler: authenticates the partner key exactly as the REST routes do (same middleware,
 * same 401/403/429 bodies), then upgrades. Headers are read before the asynchronous key lookup.
 */
export const authenticatedUpgrade = (
  runtime: Runtime.Runtime<never>,
  partnerKey: MiddlewareRuntime,
  gate: UpgradeGate
) =>
(res: uws.HttpResponse, req: uws.HttpRequest, context: uws.us_socket_context_t): void => {
  const headers: Record<string, string> = {}
  req.forEach((name, value) => {
    headers[name] = headers[name] === undefined ? value : `${headers[name]}, ${value}`
  })
  const requestId = requestIdFor(req.getHeader("x-request-id"))
  const request: RequestInfo = {
    id: requestId,
    method: "GET",
    path: req.getUrl(),
    query: req.getQuery() ?? "",
    header: (name) => headers[name],
    remoteAddress: Buffer.from(res.getRemoteAddressAsText()).toString()
  }
  const upgradeHeaders: UpgradeHeaders = {
    key: headers["sec-websocket-key"] ?? "",
    protocol: headers["sec-websocket-protocol"] ?? "",
    extensions: headers["sec-websocket-extensions"] ?? ""
  }
  let aborted = false
  res.onAborted(() => {
    aborted = true
  })
  const refuse = (failure: HttpFailure) => {
    if (failure.unexpected !== undefined) {
      Runtime.runFork(runtime)(Effect.logError(`WebSocket upgrade failed (request ${requestId})`, failure.unexpected))
    }
    writeResponse(res, failure.status, requestId, [["content-type", JSON_CONTENT_TYPE], ...failure.headers], failure.body, { close: true })
  }
  const admitLater = (keyId: string, admission: LaterAdmission) =>
    Runtime.runCallback(runtime)(admission.later, {
      onExit: (exit) => {
        if (aborted) {
          if (Exit.isSuccess(exit) && exit.value === null) gate.abandoned?.(keyId)
          return
        }
        res.cork(() => {
          if (Exit.isFailure(exit)) return refuse(failureToHttp(globalErrorTable, exit.cause, requestId))
          if (exit.value !== null) return refuse(errorToHttp(globalErrorTable, exit.value, requestId))
          gate.accept(res, keyId, upgradeHeaders, context, request)
        })
      }
    })
  Runtime.runCallback(runtime)(partnerKey.run(request), {
    onExit: (exit) => {
      if (aborted) return
      res.cork(() => {
        if (Exit.isFailure(exit)) return refuse(failureToHttp(globalErrorTable, exit.cause, requestId))
        const keyId = Context.get(exit.value.context as Context.Context<AuthenticatedPartner>, AuthenticatedPartner).keyId
        const admission = gate.admit(keyId)
        if (admission !== null && "later" in admission) return admitLater(keyId, admission)
        if (admission !== null) return refuse(errorToHttp(globalErrorTable, admission, requestId))
        gate.accept(res, keyId, upgradeHeaders, context, request)
      })
    }
  })
}
