import type { HttpRequest, HttpResponse } from "uwebsockets"
import type { CorsPolicy } from "../../src/api/annotations.ts"
import type { RouteHandler } from "./HttpServer.ts"
import { requestIdFor } from "./requestId.ts"
import { type HeaderList, writeResponse } from "./respond.ts"

/**
 * CORS for public routes (`PublicCors`). Any origin: these routes carry no credential and no cookie,
 * so `*` exposes nothing a browser session holds.
 */
export const DEFAULT_CORS: CorsPolicy = {
  allowHeaders: "content-type, x-request-id",
  exposeHeaders: "x-request-id, x-ratelimit-limit, x-ratelimit-remaining, x-ratelimit-reset, retry-after"
}

/** The headers every answer of a route with this policy carries. */
export const corsAnswerHeaders = (policy: CorsPolicy): HeaderList => [
  ["access-control-allow-origin", "*"],
  ["access-control-expose-headers", policy.exposeHeaders],
  ...(policy.answerHeaders ?? [])
]

export const CORS_HEADERS: HeaderList = corsAnswerHeaders(DEFAULT_CORS)

const PREFLIGHT_MAX_AGE_SECONDS = "600"

/** 204 to an `OPTIONS` preflight on a public path: the methods it serves and the headers a browser may send. */
export const corsPreflight = (methods: ReadonlyArray<string>, policy: CorsPolicy = DEFAULT_CORS): RouteHandler => {
  const headers: HeaderList = [
    ...corsAnswerHeaders(policy),
    ["access-control-allow-methods", policy.allowMethods ?? [...methods, "OPTIONS"].join(", ")],
    ["access-control-allow-headers", policy.allowHeaders],
    ["access-control-max-age", PREFLIGHT_MAX_AGE_SECONDS],
    ["vary", "origin, access-control-request-method, access-control-request-headers"]
  ]
  return (res: HttpResponse, req: HttpRequest) => writeResponse(res, 204, requestIdFor(req.getHeader("x-request-id")), headers, "")
}
