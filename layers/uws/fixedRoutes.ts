import type { HttpRequest, HttpResponse } from "uwebsockets"
import { MethodNotAllowed } from "../../src/api/errors.ts"
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
  writeResponse(
    res,
    failure.status,
    [["content-type", JSON_CONTENT_TYPE], ["x-request-id", requestId], ...failure.headers],
    failure.body
  )
}

/** A body computed once at start-up (large ones are streamed with backpressure). */
export const fixedBody = (contentType: string, body: Buffer, cacheControl: string): RouteHandler => (res, req) => {
  const requestId = requestIdFor(req.getHeader("x-request-id"))
  writeResponse(
    res,
    200,
    [["content-type", contentType], ["x-request-id", requestId], ["cache-control", cacheControl]],
    body
  )
}
