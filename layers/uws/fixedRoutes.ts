import type { HttpRequest, HttpResponse } from "uwebsockets"
import { MethodNotAllowed, UpgradeRequired } from "../../src/api/errors.ts"
import { errorToHttp, globalErrorTable } from "./errorMapping.ts"
import type { RouteHandler } from "./HttpServer.ts"
import { requestIdFor } from "./requestId.ts"
import { JSON_CONTENT_TYPE, writeResponse } from "./respond.ts"

/** 405 with `Allow` and the envelope, for the other methods of a known path. */
export const methodNotAllowed = (allow: ReadonlyArray<string>): RouteHandler => (res: HttpResponse, req: HttpRequest) => {
  const requestId = requestIdFor(req.getHeader("x-request-id"))
  const method = req.getCaseSensitiveMethod().slice(0, 16)
  const failure = errorToHttp(
    globalErrorTable,
    new MethodNotAllowed({
      code: "METHOD_NOT_ALLOWED",
      allow,
      message: `${method} is not allowed here; allowed: ${allow.join(", ")}`
    }),
    requestId
  )
  writeResponse(res, failure.status, requestId, [["content-type", JSON_CONTENT_TYPE], ...failure.headers], failure.body)
}

/** A body computed once at start-up (large ones are streamed with backpressure). */
export const fixedBody = (contentType: string, body: Buffer, cacheControl: string): RouteHandler => {
  const headers = [["content-type", contentType], ["cache-control", cacheControl]] as const
  return (res, req) => writeResponse(res, 200, requestIdFor(req.getHeader("x-request-id")), headers, body)
}

/** A permanent redirect (308: the method is kept) with an empty body. */
export const redirectTo = (location: string): RouteHandler => {
  const headers = [["location", location], ["cache-control", "no-cache"]] as const
  return (res, req) => writeResponse(res, 308, requestIdFor(req.getHeader("x-request-id")), headers, "")
}

/** 426 with `Upgrade: websocket` and the envelope, for a plain request to a WebSocket path. */
export const upgradeRequired = (path: string): RouteHandler => (res: HttpResponse, req: HttpRequest) => {
  const requestId = requestIdFor(req.getHeader("x-request-id"))
  const failure = errorToHttp(
    globalErrorTable,
    new UpgradeRequired({ code: "UPGRADE_REQUIRED", message: `${path} is a WebSocket endpoint: open it with a WebSocket client` }),
    requestId
  )
  const headers = [["content-type", JSON_CONTENT_TYPE], ["upgrade", "websocket"], ["connection", "Upgrade"], ...failure.headers] as const
  writeResponse(res, failure.status, requestId, headers, failure.body)
}
