import type { HttpResponse } from "uwebsockets"
import { type HeaderList, joinHeaders } from "../../src/api/headerLines.ts"
import { NOSNIFF } from "./securityHeaders.ts"

export type { HeaderList }

const STATUS_TEXT: Record<number, string> = {
  200: "OK",
  201: "Created",
  202: "Accepted",
  204: "No Content",
  308: "Permanent Redirect",
  400: "Bad Request",
  401: "Unauthorized",
  403: "Forbidden",
  404: "Not Found",
  405: "Method Not Allowed",
  409: "Conflict",
  413: "Payload Too Large",
  414: "URI Too Long",
  415: "Unsupported Media Type",
  422: "Unprocessable Content",
  426: "Upgrade Required",
  429: "Too Many Requests",
  431: "Request Header Fields Too Large",
  500: "Internal Server Error",
  502: "Bad Gateway",
  503: "Service Unavailable",
  504: "Gateway Timeout"
}

const statusLines = new Map<number, string>()

/** `"200 OK"`: what uWS `writeStatus` wants. */
export const statusLine = (status: number): string => {
  let line = statusLines.get(status)
  if (line === undefined) {
    line = STATUS_TEXT[status] === undefined ? String(status) : `${status} ${STATUS_TEXT[status]}`
    statusLines.set(status, line)
  }
  return line
}

export const JSON_CONTENT_TYPE = "application/json; charset=utf-8"

/**
 * The headers of an answer but its request's own, prepared once (a route's fixed headers) for
 * `writeResponse`. uWS writes `name: value\r\n` per `writeHeader`, and a native call per header was
 * a measurable share of a cached read, so all of them go out in one call: the fixed lines, nosniff
 * first, are the name, and the request's id with what middleware added the value. Per request only
 * those few bytes are joined; the fixed part is one string that V8 flattens once (joined into the
 * value instead, it was copied again on every answer: 600 instructions of a one-vault read's 28k).
 */
export class ResponseHead {
  readonly lead: string
  constructor(headers: HeaderList) {
    this.lead = `x-content-type-options: ${NOSNIFF}${joinHeaders(headers)}\r\nx-request-id`
  }
}

/** Bodies above this are streamed with `tryEnd`/`onWritable` instead of copied whole into uWS. */
const STREAM_ABOVE_BYTES = 64 * 1024

export interface WriteOptions {
  /** Joined header lines written after `headers` (e.g. what middleware added for this request). */
  readonly extraLines?: string
  /** Close the connection after this (small) response, e.g. when a request body was left unread. */
  readonly close?: boolean
  /** Called if the client goes away before a large body is fully written. */
  readonly onAborted?: () => void
}

const NO_OPTIONS: WriteOptions = {}

/**
 * Writes a whole response with its `X-Request-Id` and `X-Content-Type-Options: nosniff`. Call it corked: directly inside a uWS handler, or
 * inside `res.cork` after an asynchronous step. Large bodies respect backpressure: the rest is
 * written as the socket drains, and the response is abort-safe meanwhile.
 */
export const writeResponse = (
  res: HttpResponse,
  status: number,
  requestId: string,
  headers: HeaderList | ResponseHead,
  body: string | Uint8Array,
  options: WriteOptions = NO_OPTIONS
): void => {
  // uWS writes "200 OK" itself when no status is written.
  if (status !== 200) res.writeStatus(statusLine(status))
  // One native call for all headers (see ResponseHead; measured: a second writeHeader with the route's
  // lines cost more). The request id is sanitised (`requestIdFor`): it cannot carry a line break.
  const head = headers instanceof ResponseHead ? headers : new ResponseHead(headers)
  const extra = options.extraLines
  res.writeHeader(head.lead, extra === undefined ? requestId : requestId + extra)
  if (options.close === true) {
    res.end(body, true)
  } else if (body.length <= STREAM_ABOVE_BYTES) {
    res.end(body)
  } else {
    streamBody(res, typeof body === "string" ? Buffer.from(body) : body, options.onAborted)
  }
}

/**
 * Writes once `pending` settles (`write(undefined)` if it failed), corked; nothing if the client left
 * meanwhile. Call it where the response may still be touched (in the handler, or corked after an
 * asynchronous step): it takes over the response's abort handler.
 */
export const writeWhenSettled = <A>(res: HttpResponse, pending: Promise<A>, write: (value: A | undefined) => void): void => {
  let aborted = false
  res.onAborted(() => {
    aborted = true
  })
  const settle = (value: A | undefined) => {
    if (!aborted) res.cork(() => write(value))
  }
  pending.then(settle, () => settle(undefined))
}

const streamBody = (res: HttpResponse, body: Uint8Array, onAborted: (() => void) | undefined): void => {
  const total = body.length
  const start = res.getWriteOffset()
  const [ok, done] = res.tryEnd(body, total)
  if (ok || done) return
  let aborted = false
  res.onAborted(() => {
    aborted = true
    onAborted?.()
  })
  res.onWritable((offset) => {
    if (aborted) return true
    const [ok] = res.tryEnd(body.subarray(offset - start), total)
    return ok
  })
}
