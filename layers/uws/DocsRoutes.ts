import type * as HttpApi from "@effect/platform/HttpApi"
import { Effect, Layer, Runtime } from "effect"
import { InternalError } from "../../src/api/errors.ts"
import { openApiDocument, renderDocsHtml } from "../../src/api/docs.ts"
import { asyncApiDocument } from "../../src/ws/asyncApi.ts"
import { type FixedResponder, fixedBody, fixedResponder, methodNotAllowed, redirectTo, writeError } from "./fixedRoutes.ts"
import { HttpServer } from "./HttpServer.ts"
import { requestIdFor } from "./requestId.ts"
import { writeWhenSettled } from "./respond.ts"
import { docsCsp, htmlSecurityHeaders } from "./securityHeaders.ts"

/** The paths this layer serves besides the contract (they describe it, so they are not in it). */
export const DOCS_PATHS = ["/", "/openapi.json", "/asyncapi.json", "/docs"] as const

/**
 * `GET /openapi.json` (the contract as OpenAPI 3.1), `GET /asyncapi.json` (the stream as AsyncAPI
 * 3.0), `GET /docs` (an offline API reference), and `/` leading there. The docs page is rendered on
 * its first request (which waits for it): Scalar's script is some 13 MB of the heap, which a
 * process nobody reads the docs of does not hold.
 */
export const DocsRoutesLive = (api: HttpApi.HttpApi.Any) =>
  Layer.effectDiscard(
    Effect.gen(function*() {
      const server = yield* HttpServer
      const runtime = yield* Effect.runtime<never>()
      const spec = Buffer.from(JSON.stringify(openApiDocument(api)))
      let docsPage: Promise<FixedResponder> | undefined
      const rendered = () =>
        docsPage ??= Runtime.runPromise(runtime)(
          renderDocsHtml(api).pipe(
            Effect.map((page) => fixedResponder("text/html; charset=utf-8", Buffer.from(page), "no-cache", htmlSecurityHeaders(docsCsp(page)))),
            Effect.tapErrorCause((cause) => Effect.logError("the docs page cannot be rendered", cause))
          )
        )
      server.route("GET", "/openapi.json", fixedBody("application/json; charset=utf-8", spec, "no-cache"))
      server.route("GET", "/asyncapi.json", fixedBody("application/json; charset=utf-8", Buffer.from(JSON.stringify(asyncApiDocument())), "no-cache"))
      server.route("GET", "/docs", (res, req) => {
        const requestId = requestIdFor(req.getHeader("x-request-id"))
        const acceptEncoding = req.getHeader("accept-encoding")
        writeWhenSettled(res, rendered(), (respond) => {
          if (respond !== undefined) return respond(res, requestId, acceptEncoding)
          writeError(res, requestId, new InternalError({ code: "INTERNAL", message: "the docs page could not be rendered; see the server log", requestId }))
        })
      })
      server.route("GET", "/", redirectTo("/docs"))
      for (const path of DOCS_PATHS) server.route("ANY", path, methodNotAllowed(["GET"]))
    }).pipe(Effect.withSpan("DocsRoutes.register"))
  )
