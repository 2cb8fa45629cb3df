import * as HttpApi from "@effect/platform/HttpApi"
import * as HttpApiBuilder from "@effect/platform/HttpApiBuilder"
import * as HttpServerRequest from "@effect/platform/HttpServerRequest"
import * as OpenApi from "@effect/platform/OpenApi"
import { Context, Effect, Layer } from "effect"

/** The OpenAPI 3.1 document of a contract: every route, parameter, body and error response. */
export const openApiDocument = (api: HttpApi.HttpApi.Any): OpenApi.OpenAPISpec => OpenApi.fromApi(api as any)

/**
 * The docs page of a contract: Scalar's API reference with its script inlined (the bundle ships
 * with `@effect/platform`), so the page works offline and loads nothing from a CDN. Rendered once,
 * in memory, through `HttpApiScalar`'s own handler, imported only then (its script is ~13 MB of heap).
 */
export const renderDocsHtml = (api: HttpApi.HttpApi.Any): Effect.Effect<string> =>
  Effect.gen(function*() {
    const HttpApiScalar = yield* Effect.promise(() => import("@effect/platform/HttpApiScalar"))
    return yield* scalarPage(api, HttpApiScalar)
  }).pipe(Effect.withSpan("renderDocsHtml"))

const scalarPage = (api: HttpApi.HttpApi.Any, HttpApiScalar: typeof import("@effect/platform/HttpApiScalar")): Effect.Effect<string> =>
  Effect.gen(function*() {
    const router = yield* HttpApiBuilder.Router.router
    const request = HttpServerRequest.fromWeb(new Request("http://localhost/docs"))
    // The router's type asks for the platform services any route might use; Scalar's handler (a
    // constant HTML response) uses none, so none are provided.
    const handle = router.pipe(Effect.provideService(HttpServerRequest.HttpServerRequest, request), Effect.scoped)
    const response = yield* (handle as Effect.Effect<Effect.Effect.Success<typeof handle>, Effect.Effect.Error<typeof handle>>)
    const body = response.body
    if (body._tag !== "Uint8Array") return yield* Effect.dieMessage(`unexpected docs body ${body._tag}`)
    return new TextDecoder().decode(body.body)
  }).pipe(
    Effect.provide(
      HttpApiScalar.layer({ path: "/docs", scalar: { withDefaultFonts: false } }).pipe(
        Layer.provideMerge(HttpApiBuilder.Router.Live),
        Layer.provide(Layer.succeed(HttpApi.Api, { api: api as any, context: Context.empty() }))
      )
    ),
    Effect.orDie
  )
