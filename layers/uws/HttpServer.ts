import uws from "uwebsockets"
import { Context, Data, Effect, Layer } from "effect"
import { NotFound } from "../../src/api/errors.ts"
import { errorToHttp, globalErrorTable } from "./errorMapping.ts"
import { truncate } from "./queryString.ts"
import { requestIdFor } from "./requestId.ts"
import { JSON_CONTENT_TYPE, writeResponse } from "./respond.ts"

export class HttpServerError extends Data.TaggedError("HttpServerError")<{ readonly message: string }> {}

export type RouteHandler = (res: uws.HttpResponse, req: uws.HttpRequest) => void

export type RouteMethod = "GET" | "POST" | "PUT" | "PATCH" | "DELETE" | "OPTIONS" | "HEAD" | "ANY"

export interface RegisteredRoute {
  readonly method: RouteMethod
  /** uWS pattern, e.g. `/v2/vault/:vaultAddress`. */
  readonly pattern: string
}

/**
 * The uWS app. Route layers register with `route` (so the server knows every route it answers: see
 * `routes`); `app` stays available for WebSocket behaviours. It listens only once `HttpListenerLive`
 * is built, which composition does after every route layer, so no request sees a half-built app.
 */
export class HttpServer extends Context.Tag("HttpServer")<
  HttpServer,
  {
    readonly app: uws.TemplatedApp
    readonly route: (method: RouteMethod, pattern: string, handler: RouteHandler) => void
    readonly routes: () => ReadonlyArray<RegisteredRoute>
    /** Requests received by the routes since start and WebSocket connections open (kept by `WsStreamLive`). */
    readonly traffic: TrafficCounts
  }
>() {}

export interface TrafficCounts {
  requests: number
  wsConnections: number
}

/** Where the server listens. */
export class HttpListener extends Context.Tag("HttpListener")<
  HttpListener,
  { readonly host: string; readonly port: number; readonly url: string }
>() {}

export interface HttpServerOptions {
  readonly host: string
  /** 0 picks a free port. */
  readonly port: number
}

const listen = (app: uws.TemplatedApp, { host, port }: HttpServerOptions) =>
  Effect.async<uws.us_listen_socket, HttpServerError>((resume) => {
    app.listen(host, port, (socket) => {
      resume(
        socket === false
          ? Effect.fail(new HttpServerError({ message: `cannot listen on ${host}:${port} (in use or not allowed)` }))
          : Effect.succeed(socket)
      )
    })
  })

const notFound = (res: uws.HttpResponse, req: uws.HttpRequest): void => {
  const requestId = requestIdFor(req.getHeader("x-request-id"))
  const failure = errorToHttp(
    globalErrorTable,
    new NotFound({
      code: "NOT_FOUND",
      message: `no route for ${truncate(req.getCaseSensitiveMethod(), 16)} ${truncate(req.getUrl(), 200)}`
    }),
    requestId
  )
  writeResponse(res, failure.status, requestId, [["content-type", JSON_CONTENT_TYPE], ...failure.headers], failure.body)
}

const register = (app: uws.TemplatedApp, method: RouteMethod, pattern: string, handler: RouteHandler) => {
  switch (method) {
    case "GET":
      return app.get(pattern, handler)
    case "POST":
      return app.post(pattern, handler)
    case "PUT":
      return app.put(pattern, handler)
    case "PATCH":
      return app.patch(pattern, handler)
    case "DELETE":
      return app.del(pattern, handler)
    case "OPTIONS":
      return app.options(pattern, handler)
    case "HEAD":
      return app.head(pattern, handler)
    case "ANY":
      return app.any(pattern, handler)
  }
}

/** The app and its catch-all 404; closes every open connection when the scope closes. */
export const HttpServerLive = Layer.scoped(
  HttpServer,
  Effect.gen(function*() {
    const app = yield* Effect.acquireRelease(Effect.sync(() => uws.App()), (app) => Effect.sync(() => app.close()))
    const routes: Array<RegisteredRoute> = []
    const traffic: TrafficCounts = { requests: 0, wsConnections: 0 }
    // uWS prefers any more specific route to this one, whatever the registration order.
    app.any("/*", (res, req) => {
      traffic.requests++
      notFound(res, req)
    })
    return {
      app,
      route: (method, pattern, handler) => {
        register(app, method, pattern, (res, req) => {
          traffic.requests++
          handler(res, req)
        })
        routes.push({ method, pattern })
      },
      routes: () => routes,
      traffic
    }
  })
)

/** Listens while the scope is open (port 0 picks a free one); stops listening when it closes. */
export const HttpListenerLive = (options: HttpServerOptions) =>
  Layer.scoped(
    HttpListener,
    Effect.gen(function*() {
      const { app } = yield* HttpServer
      const socket = yield* Effect.acquireRelease(listen(app, options), (socket) =>
        Effect.sync(() => uws.us_listen_socket_close(socket))
      )
      const port = uws.us_socket_local_port(socket as unknown as uws.us_socket)
      const url = `http://${options.host.includes(":") ? `[${options.host}]` : options.host}:${port}`
      yield* Effect.logInfo(`listening on ${url}`)
      return { host: options.host, port, url }
    })
  )
