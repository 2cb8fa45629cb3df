import { HttpApi, HttpApiEndpoint, HttpApiGroup, HttpApiMiddleware } from "@effect/platform"
import { describe, expect, layer } from "@effect/vitest"
import net from "node:net"
import { Context, Effect, Layer, Schema } from "effect"
import { ApiRoutesLive } from "../../../layers/uws/ApiRoutes.ts"
import { HttpListener } from "../../../layers/uws/HttpServer.ts"
import { BadRequestResponse, InternalErrorResponse } from "../../../src/api/errors.ts"
import { implementGroup, type RequestInfo } from "../../../src/api/handlers.ts"
import { implementMiddleware } from "../../../src/api/middleware.ts"
import { fetchJson } from "../../support/httpFetch.ts"
import { listenForTest } from "../../../src/bench/support/httpTestServer.ts"

/**
 * The peer address is read from the socket only when asked for, so it must still be right when it
 * is asked for after an asynchronous step, and asking must not touch a response uWS has let go of.
 */

class Peer extends Context.Tag("test/Peer")<Peer, { readonly address: string }>() {}

/** Reads the peer address only after an asynchronous step (as a remote quota store would). */
class SlowPeer extends HttpApiMiddleware.Tag<SlowPeer>()("SlowPeer", { provides: Peer }) {}

const PeerApi = HttpApi.make("peer")
  .add(
    HttpApiGroup.make("peer")
      .add(HttpApiEndpoint.get("later", "/peer/later").addSuccess(Schema.Struct({ middleware: Schema.String, handler: Schema.String })))
      .add(HttpApiEndpoint.get("handler", "/peer/handler").addSuccess(Schema.Struct({ handler: Schema.String })))
      .middleware(SlowPeer)
  )
  .addError(BadRequestResponse)
  .addError(InternalErrorResponse)

// Uninterruptible: the address is read even when the client has left meanwhile (the interruption
// that follows an abort comes too late for a step already under way).
/** Every address the middleware read, or how reading it failed. */
const readAddresses: Array<string> = []
const readAddress = (request: RequestInfo) => {
  try {
    readAddresses.push(request.remoteAddress)
  } catch (error) {
    readAddresses.push(`failed: ${error}`)
  }
  return request.remoteAddress
}

const SlowPeerLive = implementMiddleware(SlowPeer, (request) =>
  Effect.uninterruptible(Effect.sleep("30 millis").pipe(Effect.map(() => ({ provides: { address: readAddress(request) } })))))

const PeerHandlersLive = implementGroup(PeerApi, "peer", Effect.succeed({
  later: ({ request }) =>
    Effect.map(Peer, (peer) => ({ middleware: peer.address, handler: request.remoteAddress })),
  handler: ({ request }) => Effect.succeed({ handler: request.remoteAddress })
}))

const server = listenForTest(ApiRoutesLive(PeerApi).pipe(Layer.provide(Layer.merge(SlowPeerLive, PeerHandlersLive))))

const get = (path: string) => Effect.flatMap(HttpListener, ({ url }) => fetchJson(`${url}${path}`))

/** Sends a request and closes the socket once the server has it, before the answer can come. */
const sendAndLeave = (port: number, path: string) =>
  Effect.async<void>((resume) => {
    const socket = net.connect(port, "127.0.0.1", () => {
      socket.write(`GET ${path} HTTP/1.1\r\nHost: x\r\n\r\n`)
      setTimeout(() => {
        socket.destroy()
        resume(Effect.void)
      }, 5)
    })
  })

describe("the peer address, read on first use", () => {
  layer(server, { excludeTestServices: true })((it) => {
    it.effect("is the socket's address for middleware and handler, when read after an asynchronous step and at once", () =>
      Effect.gen(function*() {
        const later = yield* get("/peer/later")
        expect(later.status).toBe(200)
        expect(later.body).toEqual({ middleware: "127.0.0.1", handler: "127.0.0.1" })
        const direct = yield* get("/peer/handler")
        expect(direct.body).toEqual({ handler: "127.0.0.1" })
      }))

    it.effect("a client that left before the address was read: it was read while it could be, and the server goes on", () =>
      Effect.gen(function*() {
        const { port } = yield* HttpListener
        readAddresses.length = 0
        for (let i = 0; i < 20; i++) yield* sendAndLeave(port, "/peer/later")
        for (let i = 0; i < 100 && readAddresses.length < 20; i++) yield* Effect.sleep("20 millis")
        expect(readAddresses).toEqual(Array.from({ length: 20 }, () => "127.0.0.1"))
        const after = yield* get("/peer/later")
        expect(after.status).toBe(200)
        expect(after.body).toEqual({ middleware: "127.0.0.1", handler: "127.0.0.1" })
      }))
  })
})
