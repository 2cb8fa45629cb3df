import uws from "uwebsockets"
import type { Faults } from "../faults.ts"
import { methodNames, parseBody, type RpcDispatcher } from "./dispatcher.ts"

/**
 * JSON-RPC over HTTP: POST on any path, answers always 200 with a JSON-RPC body (errors inside),
 * except the injected 429 fault. Big answers are written in chunks as the client drains them.
 * `GET /health` answers "ok" as a node does.
 */
export interface HttpRpcServer {
  readonly port: number
  readonly close: () => void
}

const MAX_BODY_BYTES = 10 * 1024 * 1024
// Under 128 KB: a chunk is flattened to be written, and V8 allocates a longer string in its
// large-object space, at many times the cost.
const WRITE_CHUNK_CHARS = 64 * 1024
const CORS_HEADERS: ReadonlyArray<readonly [string, string]> = [
  ["Access-Control-Allow-Origin", "*"],
  ["Access-Control-Allow-Methods", "POST, OPTIONS"],
  ["Access-Control-Allow-Headers", "Content-Type, solana-client"]
]

interface ResponseState {
  aborted: boolean
}

const writeHeaders = (res: uws.HttpResponse, status: string, contentType: string): void => {
  res.writeStatus(status).writeHeader("Content-Type", contentType)
  for (const [name, value] of CORS_HEADERS) res.writeHeader(name, value)
}

/** Joins small pieces into write-sized chunks. */
function* chunked(pieces: Iterable<string>): Generator<string> {
  let buffer = ""
  for (const piece of pieces) {
    buffer += piece
    if (buffer.length >= WRITE_CHUNK_CHARS) {
      yield buffer
      buffer = ""
    }
  }
  if (buffer.length > 0) yield buffer
}

const sendJson = (res: uws.HttpResponse, state: ResponseState, pieces: Iterable<string>): void => {
  const chunks = chunked(pieces)
  const first = chunks.next()
  const second = first.done === true ? first : chunks.next()
  if (second.done === true) {
    res.cork(() => {
      writeHeaders(res, "200 OK", "application/json")
      res.end(first.done === true ? "" : first.value)
    })
    return
  }
  // Streamed answer: write while the socket takes it, resume when it drains.
  let pending: string | undefined = first.value
  let next: string | undefined = second.value
  const pump = (): void => {
    while (!state.aborted) {
      const chunk = pending ?? next ?? chunks.next().value
      if (pending !== undefined) pending = undefined
      else if (next !== undefined) next = undefined
      if (chunk === undefined) {
        res.end()
        return
      }
      if (!res.write(chunk)) return
    }
  }
  res.onWritable(() => {
    res.cork(pump)
    return true
  })
  res.cork(() => {
    writeHeaders(res, "200 OK", "application/json")
    pump()
  })
}

export const listenHttpRpc = (host: string, port: number, dispatcher: RpcDispatcher, faults: Faults): HttpRpcServer | undefined => {
  const app = uws.App()
  app.options("/*", (res) => {
    res.cork(() => {
      res.writeStatus("204 No Content")
      for (const [name, value] of CORS_HEADERS) res.writeHeader(name, value)
      res.end()
    })
  })
  app.get("/health", (res) => {
    res.cork(() => {
      writeHeaders(res, "200 OK", "text/plain")
      res.end("ok")
    })
  })
  app.get("/*", (res) => {
    res.cork(() => {
      writeHeaders(res, "405 Method Not Allowed", "text/plain")
      res.end("Used HTTP Method is not allowed. POST or OPTIONS is required")
    })
  })
  app.post("/*", (res) => {
    const state: ResponseState = { aborted: false }
    res.onAborted(() => {
      state.aborted = true
    })
    const parts: Buffer[] = []
    let size = 0
    res.onData((chunk, isLast) => {
      if (state.aborted) return
      size += chunk.byteLength
      if (size > MAX_BODY_BYTES) {
        state.aborted = true
        res.cork(() => {
          writeHeaders(res, "413 Payload Too Large", "text/plain")
          res.end("request body too large", true)
        })
        return
      }
      parts.push(Buffer.from(chunk.slice(0)))
      if (!isLast) return
      try {
        respond(res, state, Buffer.concat(parts).toString("utf8"), dispatcher, faults)
      } catch (error) {
        console.error("sandbox HTTP handler failed", error)
        if (!state.aborted) res.close()
      }
    })
  })

  let listenSocket: uws.us_listen_socket | false = false
  app.listen(host, port, (socket) => {
    listenSocket = socket
  })
  if (listenSocket === false) return undefined
  return {
    port: uws.us_socket_local_port(listenSocket as unknown as uws.us_socket),
    close: () => app.close()
  }
}

const respond = (res: uws.HttpResponse, state: ResponseState, body: string, dispatcher: RpcDispatcher, faults: Faults): void => {
  const parsed = parseBody(body)
  const names = methodNames(parsed)
  if (!names.some((name) => name.startsWith("sandbox_"))) {
    const retryAfter = faults.http429RetryAfter()
    if (retryAfter !== undefined) {
      res.cork(() => {
        writeHeaders(res, "429 Too Many Requests", "application/json")
        res.writeHeader("Retry-After", String(retryAfter))
        res.end(`{"jsonrpc":"2.0","error":{"code":429,"message":"Too many requests"},"id":null}`)
      })
      return
    }
  }
  sendJson(res, state, dispatcher.execute(parsed))
}
