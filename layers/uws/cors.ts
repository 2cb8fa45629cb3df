import type { HttpRequest, HttpResponse } from "uwebsockets"
import type { RouteHandler } from "./HttpServer.ts"
import { requestIdFor } from "./requestId.ts"
import { type HeaderList, writeResponse } from "./respond.ts"

/**
 * CORS for public routes (`PublicCors`). Any origin: these routes carry no credential and no cookie,
 * so `*` exposes nothing a browser session holds.
 */
export const CORS_HEADERS: HeaderList = [
  ["access-control-allow-origin", "*"],
  ["access-control-expose-headers", "x-request-id, x-ratelimit-limit, x-ratelimit-remaining, x-ratelimit-reset, retry-after"]
]

const PREFLIGHT_MAX_AGE_SECONDS = "600"

/** 204 to an `OPTIONS` preflight on a public path: the methods it serves and the headers a browser may send. */
export const corsPreflight = (methods: ReadonlyArray<string>): RouteHandler => {
  const headers: HeaderList = [
    ...CORS_HEADERS,
    ["access-control-allow-methods", [...methods, "OPTIONS"].join(", ")],
    ["access-control-allow-headers", "content-type, x-request-id"],
    ["access-control-max-age", PREFLIGHT_MAX_AGE_SECONDS],
    ["vary", "origin, access-control-request-method, access-control-request-headers"]
  ]
  return (res: HttpResponse, req: HttpRequest) => writeResponse(res, 204, requestIdFor(req.getHeader("x-request-id")), headers, "")
}
