import type { HttpApi } from "@effect/platform"
import { Effect, Layer } from "effect"
import { openApiDocument, renderDocsHtml } from "../../src/api/docs.ts"
import { asyncApiDocument } from "../../src/ws/asyncApi.ts"
import { fixedBody, methodNotAllowed, redirectTo } from "./fixedRoutes.ts"
import { HttpServer } from "./HttpServer.ts"
import { docsCsp, htmlSecurityHeaders } from "./securityHeaders.ts"

/** The paths this layer serves besides the contract (they describe it, so they are not in it). */
export const DOCS_PATHS = ["/", "/openapi.json", "/asyncapi.json", "/docs"] as const

/** `GET /openapi.json` (the contract as OpenAPI 3.1), `GET /asyncapi.json` (the stream as AsyncAPI 3.0), `GET /docs` (an offline API reference), and `/` leading there. */
export const DocsRoutesLive = (api: HttpApi.HttpApi.Any) =>
  Layer.effectDiscard(
    Effect.gen(function*() {
      const server = yield* HttpServer
      const spec = Buffer.from(JSON.stringify(openApiDocument(api)))
      const page = yield* renderDocsHtml(api)
      const html = Buffer.from(page)
      server.route("GET", "/openapi.json", fixedBody("application/json; charset=utf-8", spec, "no-cache"))
      server.route("GET", "/asyncapi.json", fixedBody("application/json; charset=utf-8", Buffer.from(JSON.stringify(asyncApiDocument())), "no-cache"))
      server.route("GET", "/docs", fixedBody("text/html; charset=utf-8", html, "no-cache", htmlSecurityHeaders(docsCsp(page))))
      server.route("GET", "/", redirectTo("/docs"))
      for (const path of DOCS_PATHS) server.route("ANY", path, methodNotAllowed(["GET"]))
    }).pipe(Effect.withSpan("DocsRoutes.register"))
  )
