import uws from "uwebsockets"
import { Context, Data, Effect, Layer } from "effect"
import { errorBody, writeJson } from "./respond.ts"

export class HttpServerError extends Data.TaggedError("HttpServerError")<{ readonly message: string }> {}

/** The uWS app behind the public port; route layers register their handlers on `app`. */
export class HttpServer extends Context.Tag("HttpServer")<
  HttpServer,
  { readonly app: uws.TemplatedApp; readonly host: string; readonly port: number; readonly url: string }
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

/** Listens while the scope is open; closes the listen socket and open connections when it closes. */
export const HttpServerLive = (options: HttpServerOptions) =>
  Layer.scoped(
    HttpServer,
    Effect.gen(function*() {
      const app = uws.App()
      app.any("/*", (res, req) => {
        const path = req.getUrl()
        writeJson(res, 404, errorBody("NOT_FOUND", `no route for ${req.getCaseSensitiveMethod()} ${path}`))
      })
      const socket = yield* Effect.acquireRelease(listen(app, options), (socket) =>
        Effect.sync(() => {
          uws.us_listen_socket_close(socket)
          app.close()
        })
      )
      const port = uws.us_socket_local_port(socket as unknown as uws.us_socket)
      const url = `http://${options.host.includes(":") ? `[${options.host}]` : options.host}:${port}`
      yield* Effect.logInfo(`listening on ${url}`)
      return { app, host: options.host, port, url }
    })
  )
