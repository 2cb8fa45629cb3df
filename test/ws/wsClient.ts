import { Effect, Queue, type Scope } from "effect"
import WebSocket from "ws"

export type Frame = Record<string, any>

export interface StreamClient {
  readonly send: (message: unknown) => void
  readonly sendRaw: (text: string) => void
  /** The next server frame (fails after 2 s without one). */
  readonly next: Effect.Effect<Frame, Error>
  /** Whether a frame arrives within `ms` (consumes nothing when none does). */
  readonly nothingWithin: (ms: number) => Effect.Effect<boolean>
  /** Every frame received and not taken yet. */
  readonly takeAll: Effect.Effect<Array<Frame>>
  /** The close code, once the connection has closed. */
  readonly closed: Promise<number>
  readonly socket: WebSocket
}

/** Opens a `ws` client for the scope; fails with the HTTP status when the upgrade is refused. */
export const connectStream = (
  url: string,
  headers: Record<string, string>
): Effect.Effect<StreamClient, { readonly status: number; readonly body: string }, Scope.Scope> =>
  Effect.gen(function*() {
    const frames = yield* Queue.unbounded<Frame>()
    const socket = yield* Effect.acquireRelease(
      Effect.async<WebSocket, { readonly status: number; readonly body: string }>((resume) => {
        const socket = new WebSocket(url.replace(/^http/, "ws") + "/v2/stream", { headers })
        socket.on("message", (data: Buffer) => Queue.unsafeOffer(frames, JSON.parse(data.toString("utf8")) as Frame))
        socket.on("open", () => resume(Effect.succeed(socket)))
        socket.on("unexpected-response", (_request: unknown, response: NodeJS.ReadableStream & { statusCode: number }) => {
          let body = ""
          response.on("data", (chunk: Buffer) => (body += chunk.toString("utf8")))
          response.on("end", () => resume(Effect.fail({ status: response.statusCode, body })))
        })
        socket.on("error", () => undefined)
      }),
      (socket) => Effect.sync(() => socket.terminate())
    )
    const closed = new Promise<number>((resolve) => socket.once("close", (code: number) => resolve(code)))
    return {
      socket,
      closed,
      takeAll: Effect.map(Queue.takeAll(frames), (chunk) => [...chunk]),
      send: (message) => socket.send(JSON.stringify(message)),
      sendRaw: (text) => socket.send(text),
      next: Queue.take(frames).pipe(
        Effect.timeoutFail({ duration: "2 seconds", onTimeout: () => new Error("no frame within 2 s") })
      ),
      nothingWithin: (ms) =>
        Effect.sleep(ms).pipe(Effect.zipRight(Queue.size(frames)), Effect.map((size) => size === 0))
    }
  })
