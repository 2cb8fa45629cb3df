import type * as HttpApi from "@effect/platform/HttpApi"
import type * as HttpApiGroup from "@effect/platform/HttpApiGroup"
import { Effect, Layer } from "effect"
import type { CorsPolicy } from "../../src/api/annotations.ts"
import type { ApiGroupImplementations } from "../../src/api/handlers.ts"
import type { ApiMiddlewareImplementations } from "../../src/api/middleware.ts"
import { compileRoutes } from "./compileRoutes.ts"
import { corsPreflight } from "./cors.ts"
import { methodNotAllowed } from "./fixedRoutes.ts"
import { HttpServer } from "./HttpServer.ts"
import { defaultHttpLimits, type HttpLimits } from "./limits.ts"
import { serveRoute } from "./serveRoute.ts"
import { RouteMeter } from "../../src/telemetry/routeMeter.ts"

/**
 * Serves an `HttpApi` contract on the uWS app: one route per endpoint, each running its handler on
 * the runtime this layer is built in (so handlers log and trace like the rest of the app), and a
 * 405 with `Allow` for the other methods of every contract path. Start-up fails, naming the
 * endpoint, when the contract asks for something the transport cannot serve.
 */
export const ApiRoutesLive = <Id extends string, Groups extends HttpApiGroup.HttpApiGroup.Any, E, R>(
  api: HttpApi.HttpApi<Id, Groups, E, R>,
  options: {
    readonly limits?: Partial<HttpLimits>
    /**
     * A server span per request. Off by default: with Effect's built-in tracer a span costs more
     * than the whole rest of a projection read (~15 µs against ~6 µs on the reference machine);
     * turn it on together with a real tracer.
     */
    readonly traceRequests?: boolean
    /** Count requests and their latency per route template for the Prometheus metrics. */
    readonly meterRequests?: boolean
  } = {}
): Layer.Layer<
  never,
  never,
  HttpServer | ApiGroupImplementations<HttpApi.HttpApi<Id, Groups, E, R>> | ApiMiddlewareImplementations<HttpApi.HttpApi<Id, Groups, E, R>>
> =>
  Layer.effectDiscard(
    Effect.gen(function*() {
      const server = yield* HttpServer
      const context = yield* Effect.context<never>()
      const runtime = yield* Effect.runtime<never>()
      const limits: HttpLimits = { ...defaultHttpLimits, ...options.limits }
      const routes = yield* Effect.try(() => compileRoutes(api as unknown as HttpApi.HttpApi.Any, context, limits)).pipe(Effect.orDie)
      const methodsByPattern = new Map<string, Array<string>>()
      const publicPatterns = new Map<string, CorsPolicy>()
      for (const route of routes) {
        const meter = options.meterRequests === true ? new RouteMeter(route.pattern, route.method) : undefined
        server.route(route.method, route.pattern, serveRoute(route, runtime, limits, options.traceRequests === true, meter))
        const methods = methodsByPattern.get(route.pattern) ?? []
        methods.push(route.method)
        methodsByPattern.set(route.pattern, methods)
        if (route.cors !== null) publicPatterns.set(route.pattern, route.cors)
      }
      for (const [pattern, cors] of publicPatterns) server.route("OPTIONS", pattern, corsPreflight(methodsByPattern.get(pattern)!, cors))
      for (const [pattern, methods] of methodsByPattern) server.route("ANY", pattern, methodNotAllowed(methods))
      yield* Effect.logDebug(`serving ${routes.length} API routes`)
    }).pipe(Effect.withSpan("ApiRoutes.register"))
  )
