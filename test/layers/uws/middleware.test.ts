import { HttpApi, HttpApiEndpoint, HttpApiGroup, OpenApi } from "@effect/platform"
import { describe, expect, it, layer } from "@effect/vitest"
import { Context, Effect, Layer, Schema } from "effect"
import { compileRoutes } from "../../../layers/uws/compileRoutes.ts"
import { HttpListener } from "../../../layers/uws/HttpServer.ts"
import { defaultHttpLimits } from "../../../layers/uws/limits.ts"
import { NotFound, NotFoundResponse, PayloadTooLargeResponse } from "../../../src/api/errors.ts"
import { implementGroup } from "../../../src/api/handlers.ts"
import { fetchJson } from "../../support/httpFetch.ts"
import { FixtureApi, fixtureServer, TEST_KEY } from "./fixtureApi.ts"

const get = (path: string, init?: RequestInit) => Effect.flatMap(HttpListener, ({ url }) => fetchJson(`${url}${path}`, init))

describe("the middleware seam", () => {
  layer(fixtureServer(), { excludeTestServices: true })((it) => {
    it.effect("runs before the handler: refuses with a declared error, adds headers, provides a service", () =>
      Effect.gen(function*() {
        const refused = yield* get("/whoami")
        expect(refused.status).toBe(401)
        expect(refused.body).toMatchObject({ success: false, error: "UNAUTHORIZED" })
        expect(refused.headers.get("x-quota-remaining")).toBeNull()

        const wrongKey = yield* get("/whoami", { headers: { "x-api-key": "nope" } })
        expect(wrongKey.status).toBe(401)

        const allowed = yield* get("/whoami", { headers: { "x-api-key": TEST_KEY } })
        expect(allowed.status).toBe(200)
        expect(allowed.body).toEqual({ caller: "key@127.0.0.1" })
        expect(allowed.headers.get("x-quota-remaining")).toBe("41")
      }))
  })

  layer(fixtureServer({ traceRequests: true }), { excludeTestServices: true })((it) => {
    it.effect("with a span per request: the same refusals, headers and provided service", () =>
      Effect.gen(function*() {
        expect((yield* get("/whoami")).status).toBe(401)
        const allowed = yield* get("/whoami", { headers: { "x-api-key": TEST_KEY } })
        expect(allowed.status).toBe(200)
        expect(allowed.body).toEqual({ caller: "key@127.0.0.1" })
        expect(allowed.headers.get("x-quota-remaining")).toBe("41")
      }))
  })

  it("its security scheme and failures appear in the OpenAPI document", () => {
    const spec = OpenApi.fromApi(FixtureApi)
    expect(spec.components.securitySchemes).toHaveProperty("apiKey")
    const operation = spec.paths["/whoami"]!.get!
    expect(operation.security).toEqual([{ apiKey: [] }])
    expect(Object.keys(operation.responses)).toContain("401")
  })
})

describe("the transport refuses, at start-up, contracts it cannot serve faithfully", () => {
  const Body = Schema.Struct({ a: Schema.String })
  const compile = (api: HttpApi.HttpApi.Any, context: Context.Context<never>) => () =>
    compileRoutes(api, context, defaultHttpLimits)

  it("an error declared with the bare class instead of its errorResponse schema", () => {
    const api = HttpApi.make("guard").add(
      HttpApiGroup.make("g").add(HttpApiEndpoint.get("a", "/a").addSuccess(Body).addError(NotFound))
    )
    const layer = implementGroup(api, "g", Effect.succeed({ a: () => Effect.succeed({ a: "x" }) }))
    const context = Effect.runSync(Layer.build(layer).pipe(Effect.scoped))
    expect(compile(api, context)).toThrow(/the 404 error is not declared with errorResponse/)
  })

  it("a body without PayloadTooLarge, a GET with a body, a missing handler", () => {
    const post = HttpApi.make("guard").add(
      HttpApiGroup.make("g").add(HttpApiEndpoint.post("p", "/p").setPayload(Body).addSuccess(Body))
    )
    const postLayer = implementGroup(post, "g", Effect.succeed({ p: ({ payload }) => Effect.succeed(payload) }))
    expect(compile(post, Effect.runSync(Layer.build(postLayer).pipe(Effect.scoped)))).toThrow(/PayloadTooLargeResponse/)

    const getWithBody = HttpApi.make("guard").add(
      HttpApiGroup.make("g").add(HttpApiEndpoint.get("q", "/q").setPayload(Body).addError(PayloadTooLargeResponse))
    )
    expect(compile(getWithBody, Context.empty())).toThrow(/setUrlParams/)

    const twice = HttpApi.make("guard").add(
      HttpApiGroup.make("g")
        .add(HttpApiEndpoint.get("one", "/t/:a").addSuccess(Body))
        .add(HttpApiEndpoint.get("two", "/t/:b").addSuccess(Body))
    )
    const twiceLayer = implementGroup(twice, "g", Effect.succeed({ one: () => Effect.succeed({ a: "1" }), two: () => Effect.succeed({ a: "2" }) }))
    expect(compile(twice, Effect.runSync(Layer.build(twiceLayer).pipe(Effect.scoped)))).toThrow(/same method and path/)

    const fine = HttpApi.make("guard").add(
      HttpApiGroup.make("g").add(HttpApiEndpoint.get("r", "/r").addSuccess(Body).addError(NotFoundResponse))
    )
    expect(compile(fine, Context.empty())).toThrow(/no handler/)
  })
})
