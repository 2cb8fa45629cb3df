import { OpenApi } from "@effect/platform"
import { describe, expect, it, layer } from "@effect/vitest"
import { Effect } from "effect"
import { DOCS_PATHS } from "../../../layers/uws/DocsRoutes.ts"
import { ACTION_ICON_PATH } from "../../../src/api/actions/actionIcon.ts"
import { WEB_PATHS } from "../../../layers/uws/WebPagesRoutes.ts"

/** Served beside the contract: the documents that describe it, the web pages, and an image. */
const NOT_JSON_PATHS: ReadonlyArray<string> = [...DOCS_PATHS, ...WEB_PATHS, ACTION_ICON_PATH]
import { HttpListener, HttpServer } from "../../../layers/uws/HttpServer.ts"
import { Api } from "../../../src/api/Api.ts"
import { fetchJson } from "../../support/httpFetch.ts"
import { gatewayForTest } from "../../../src/bench/support/httpTestServer.ts"
import { FixtureApi, fixtureServer } from "./fixtureApi.ts"

const METHODS = ["GET", "POST", "PUT", "PATCH", "DELETE", "OPTIONS", "HEAD"] as const
const SAMPLE_PARAMETER = "11111111111111111111111111111111"

const operationsOf = (spec: OpenApi.OpenAPISpec): Set<string> => {
  const operations = new Set<string>()
  for (const [path, item] of Object.entries(spec.paths)) {
    for (const method of Object.keys(item)) {
      if (METHODS.includes(method.toUpperCase() as never)) operations.add(`${method.toUpperCase()} ${path}`)
    }
  }
  return operations
}

const toUws = (openApiPath: string) => openApiPath.replace(/\{([^}]+)\}/g, ":$1")
const toConcrete = (openApiPath: string) => openApiPath.replace(/\{[^}]+\}/g, SAMPLE_PARAMETER)

/** Both ways: the documented operations are exactly the routes the server registered and answers. */
const documentedEqualsServed = (spec: OpenApi.OpenAPISpec) =>
  Effect.gen(function*() {
    const server = yield* HttpServer
    const { url } = yield* HttpListener
    const documented = operationsOf(spec)
    const registered = new Set(
      server.routes()
        // CORS preflight (OPTIONS on public routes) is transport behaviour, not a contract operation.
        .filter((route) => route.method !== "ANY" && route.method !== "OPTIONS" && !NOT_JSON_PATHS.includes(route.pattern))
        .map((route) => `${route.method} ${route.pattern}`)
    )
    expect(registered).toEqual(new Set([...documented].map((operation) => toUws(operation))))

    for (const path of Object.keys(spec.paths)) {
      for (const method of METHODS) {
        // A handler that never answers (the fixture's /hang) is served, just slowly.
        const { body, preflight, status } = yield* Effect.promise(() =>
          fetch(`${url}${toConcrete(path)}`, { method, signal: AbortSignal.timeout(1_000) }).then(
            async (answer) => ({
              status: answer.status,
              body: method === "HEAD" ? "" : await answer.text(),
              preflight: method === "OPTIONS" && answer.status === 204 && answer.headers.has("access-control-allow-methods")
            }),
            () => ({ status: 0, body: "", preflight: false })
          )
        )
        const routedAway = preflight || status === 405 || (status === 404 && body.includes("no route for"))
        expect(routedAway, `${method} ${path} answered ${status}`).toBe(!documented.has(`${method} ${path}`))
      }
    }
  })

describe("/openapi.json lists exactly the routes the server answers", () => {
  layer(gatewayForTest(), { excludeTestServices: true })((it) => {
    it.effect("the gateway's contract", () =>
      Effect.gen(function*() {
        const { url } = yield* HttpListener
        const served = yield* fetchJson(`${url}/openapi.json`)
        expect(served.status).toBe(200)
        expect(served.body).toEqual(JSON.parse(JSON.stringify(OpenApi.fromApi(Api))))
        expect(JSON.stringify(served.body)).not.toContain("HttpApiDecodeError")
        const components = Object.keys(served.body.components.schemas)
        expect(components).toEqual(expect.arrayContaining(["BadRequest", "InternalError", "NotReady", "ProjectionStatus"]))
        expect(components).not.toContain("Issue")
        expect(Object.keys(served.body.paths).sort()).toEqual(
          expect.arrayContaining([
            "/api/v1/vault/{vaultId}/config",
            "/api/v1/vault/{vaultId}/metrics",
            "/api/v1/vault/{vaultId}/snapshots",
            "/api/v1/vaults",
            "/health",
            "/ready",
            "/status",
            "/v2/platform/stats",
            "/v2/user/{wallet}/portfolio",
            "/v2/vault/{vaultAddress}",
            "/v2/vault/{vaultAddress}/metrics",
            "/v2/vault/{vaultAddress}/snapshots",
            "/v2/vault/{vaultAddress}/user/{wallet}/balance",
            "/v2/vault/{vaultAddress}/user/{wallet}/pending",
            "/v2/vaults"
          ])
        )
        expect(Object.keys(served.body.paths["/ready"].get.responses).sort()).toEqual(["200", "400", "414", "431", "500", "503"])
        yield* documentedEqualsServed(served.body)
      }))

    it.effect("/docs is rendered on its first request, once: requests arriving together all get the page", () =>
      Effect.gen(function*() {
        const { url } = yield* HttpListener
        const answers = yield* Effect.promise(() => Promise.all([1, 2, 3].map(() => fetch(`${url}/docs`, { headers: { "accept-encoding": "identity" } }))))
        const bodies = yield* Effect.promise(() => Promise.all(answers.map((answer) => answer.text())))
        for (const answer of answers) {
          expect(answer.status).toBe(200)
          expect(answer.headers.get("content-security-policy")).toContain("script-src 'sha256-")
        }
        expect(bodies[0]!.length).toBeGreaterThan(1_000_000)
        expect(new Set(bodies).size).toBe(1)
      }))

    it.effect("/docs is an HTML page that loads nothing from elsewhere", () =>
      Effect.gen(function*() {
        const { url } = yield* HttpListener
        const response = yield* Effect.promise(() => fetch(`${url}/docs`))
        expect(response.status).toBe(200)
        expect(response.headers.get("content-type")).toContain("text/html")
        const html = yield* Effect.promise(() => response.text())
        expect(html.startsWith("<!doctype html>")).toBe(true)
        expect(html).toContain(`<script id="api-reference" type="application/json">`)
        expect(html).toContain("/status")
        expect(html.length).toBeGreaterThan(1_000_000)
        expect(html).not.toMatch(/<script[^>]*\ssrc\s*=/i)
        expect(html).not.toMatch(/<link[^>]*\shref\s*=\s*["']?(https?:)?\/\//i)
        expect(html).not.toMatch(/<style[^>]*>\s*@import/i)
        expect(html).toContain(`"withDefaultFonts":false`)
        const post = yield* fetchJson(`${url}/docs`, { method: "POST" })
        expect(post.status).toBe(405)
        const root = yield* Effect.promise(() => fetch(`${url}/`, { redirect: "manual" }))
        expect(root.status).toBe(308)
        expect(root.headers.get("location")).toBe("/docs")
      }))
  })

  layer(fixtureServer(), { excludeTestServices: true })((it) => {
    it.effect("a contract with parameters, bodies, several methods per path and middleware", () =>
      Effect.gen(function*() {
        const spec = OpenApi.fromApi(FixtureApi)
        expect(operationsOf(spec).size).toBeGreaterThan(10)
        yield* documentedEqualsServed(spec)
      }))
  })
})
