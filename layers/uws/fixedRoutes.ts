import type { HttpRequest, HttpResponse } from "uwebsockets"
import { MethodNotAllowed, UpgradeRequired } from "../../src/api/errors.ts"
import { errorToHttp, globalErrorTable } from "./errorMapping.ts"
import type { RouteHandler } from "./HttpServer.ts"
import { requestIdFor } from "./requestId.ts"
import { codingFor, compressAsync, type ContentCoding, MIN_COMPRESSED_BYTES, VARY_ACCEPT_ENCODING } from "./contentEncoding.ts"
import type { HeaderList } from "../../src/api/headerLines.ts"
import { JSON_CONTENT_TYPE, ResponseHead, writeResponse, writeWhenSettled } from "./respond.ts"

/** An error as its status and envelope (the contract's error table), for a route outside the contract. */
export const writeError = (res: HttpResponse, requestId: string, error: unknown): void => {
  const failure = errorToHttp(globalErrorTable, error, requestId)
  writeResponse(res, failure.status, requestId, [["content-type", JSON_CONTENT_TYPE], ...failure.headers], failure.body)
}

/** 405 with `Allow` and the envelope, for the other methods of a known path. */
export const methodNotAllowed = (allow: ReadonlyArray<string>): RouteHandler => (res: HttpResponse, req: HttpRequest) => {
  const requestId = requestIdFor(req.getHeader("x-request-id"))
  const method = req.getCaseSensitiveMethod().slice(0, 16)
  writeError(
    res,
    requestId,
    new MethodNotAllowed({ code: "METHOD_NOT_ALLOWED", allow, message: `${method} is not allowed here; allowed: ${allow.join(", ")}` })
  )
}

/**
 * A body computed once at start-up (large ones are streamed with backpressure). Each content coding
 * is made once, off the event loop, when a request first asks for it (the docs page takes a
 * fraction of a second per coding: paid by a process that serves it, not by every test server
 * that never does); requests meanwhile wait for the same compression. `extraHeaders` go on every
 * answer (e.g. an HTML page's security headers).
 */
export const fixedBody = (contentType: string, body: Uint8Array, cacheControl: string, extraHeaders: HeaderList = []): RouteHandler => {
  const respond = fixedResponder(contentType, body, cacheControl, extraHeaders)
  return (res, req) => respond(res, requestIdFor(req.getHeader("x-request-id")), req.getHeader("accept-encoding"))
}

/** `fixedBody` given what it reads of the request, so that it can answer after an asynchronous step (corked). */
export type FixedResponder = (res: HttpResponse, requestId: string, acceptEncoding: string) => void

export const fixedResponder = (contentType: string, body: Uint8Array, cacheControl: string, extraHeaders: HeaderList = []): FixedResponder => {
  const base: HeaderList = [["content-type", contentType], ["cache-control", cacheControl], ...extraHeaders]
  if (body.length < MIN_COMPRESSED_BYTES) {
    const headers = new ResponseHead(base)
    return (res, requestId) => writeResponse(res, 200, requestId, headers, body)
  }
  const identity = new ResponseHead([...base, VARY_ACCEPT_ENCODING])
  const coded = {
    br: new ResponseHead([...base, VARY_ACCEPT_ENCODING, ["content-encoding", "br"]]),
    gzip: new ResponseHead([...base, VARY_ACCEPT_ENCODING, ["content-encoding", "gzip"]])
  }
  const compressed: Partial<Record<ContentCoding, Buffer | Promise<Buffer>>> = {}
  const compress = (coding: ContentCoding) => {
    const pending = compressAsync(body, coding, "best")
    pending.then((bytes) => compressed[coding] = bytes, () => delete compressed[coding])
    return compressed[coding] = pending
  }
  return (res, requestId, acceptEncoding) => {
    const coding = codingFor(acceptEncoding)
    if (coding === undefined) return writeResponse(res, 200, requestId, identity, body)
    const ready = compressed[coding] ?? compress(coding)
    if (!(ready instanceof Promise)) return writeResponse(res, 200, requestId, coded[coding], ready)
    writeWhenSettled(res, ready, (bytes) =>
      bytes === undefined ? writeResponse(res, 200, requestId, identity, body) : writeResponse(res, 200, requestId, coded[coding], bytes))
  }
}

/** A permanent redirect (308: the method is kept) with an empty body. */
export const redirectTo = (location: string): RouteHandler => {
  const headers = [["location", location], ["cache-control", "no-cache"]] as const
  return (res, req) => writeResponse(res, 308, requestIdFor(req.getHeader("x-request-id")), headers, "")
}

/** 426 with `Upgrade: websocket` and the envelope, for a plain request to a WebSocket path. */
export const upgradeRequired = (path: string): RouteHandler => (res: HttpResponse, req: HttpRequest) => {
  const requestId = requestIdFor(req.getHeader("x-request-id"))
  const failure = errorToHttp(
    globalErrorTable,
    new UpgradeRequired({ code: "UPGRADE_REQUIRED", message: `${path} is a WebSocket endpoint: open it with a WebSocket client` }),
    requestId
  )
  const headers = [["content-type", JSON_CONTENT_TYPE], ["upgrade", "websocket"], ["connection", "Upgrade"], ...failure.headers] as const
  writeResponse(res, failure.status, requestId, headers, failure.body)
}
