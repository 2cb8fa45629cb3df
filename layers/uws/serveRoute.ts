import { Cause, Context, Effect, Either, Exit, Fiber, ParseResult, Runtime } from "effect"
import type { HttpRequest, HttpResponse } from "uwebsockets"
import { HeadersTooLarge, PayloadTooLarge, UriTooLong } from "../../src/api/errors.ts"
import type { RequestInfo } from "../../src/api/handlers.ts"
import { PreEncoded } from "../../src/api/preEncoded.ts"
import { WithHeaders } from "../../src/api/withHeaders.ts"
import type { CompiledRoute } from "./compileRoutes.ts"
import { corsAnswerHeaders } from "./cors.ts"
import { errorToHttp, failureToHttp, globalErrorTable, type HttpFailure } from "./errorMapping.ts"
import type { RouteHandler } from "./HttpServer.ts"
import type { HttpLimits } from "./limits.ts"
import { readBody } from "./readBody.ts"
import { requestIdFor } from "./requestId.ts"
import { joinHeaders } from "../../src/api/headerLines.ts"
import { isEitherEffect, isExitEffect, isSettled } from "../../src/api/settledTags.ts"
import { type HeaderList, JSON_CONTENT_TYPE, ResponseHead, type WriteOptions, writeResponse, writeWhenSettled } from "./respond.ts"
import { codingFor, compressDynamic, type ContentCoding, MIN_COMPRESSED_BYTES, VARY_ACCEPT_ENCODING } from "./contentEncoding.ts"
import { AddedHeaders, runMiddlewareChain } from "./middlewareChain.ts"
import { runSyncOrFork } from "./runEffect.ts"
import { headerIn, headerRecord, ServedRequest } from "./servedRequest.ts"
import type { RouteMeter } from "../../src/telemetry/routeMeter.ts"

// A route without middleware adds no headers: one instance for all its requests.
const NONE_ADDED = new AddedHeaders()

// The request being read by `req.forEach`, which calls back synchronously: one callback for every
// request instead of a closure made per request.
let collecting: Array<string> = []
let collectedBytes = 0
const collectHeader = (name: string, value: string): void => {
  collectedBytes += name.length + value.length + 4
  collecting.push(name, value)
}

/** A handler's outcome known without running anything: an `Exit`, or an `Either` (projection reads). */
type Settled = Exit.Exit<unknown, unknown> | Either.Either<unknown, unknown>

/** What `PreEncoded.coded` compresses with, one function per coding (made once, not per request). */
const COMPRESS: Record<ContentCoding, (body: string) => Uint8Array | Promise<Uint8Array>> = {
  br: (body) => compressDynamic(body, "br"),
  gzip: (body) => compressDynamic(body, "gzip")
}

/** A request whose answer comes after an asynchronous step: remembers whether the client left. */
class Exchange {
  aborted = false
  private fiber: Fiber.RuntimeFiber<unknown, unknown> | undefined

  constructor(res: HttpResponse, private readonly runtime: Runtime.Runtime<never>) {
    res.onAborted(() => {
      this.aborted = true
      if (this.fiber !== undefined) Runtime.runFork(this.runtime, Fiber.interrupt(this.fiber))
    })
  }

  follow(fiber: Fiber.RuntimeFiber<unknown, unknown>): void {
    this.fiber = fiber
  }
}

/**
 * The uWS handler of one contract endpoint. Everything uWS only lends during the callback (headers,
 * URL, query, parameters) is read first; then path, query and headers are decoded, the body read
 * (asynchronously, within its limit) and decoded, middleware and handler run on the application
 * runtime (synchronously when they can), and the outcome written corked. No failure escapes: each
 * one becomes an HTTP answer with the error envelope and `X-Request-Id`.
 */
export const serveRoute = (
  route: CompiledRoute,
  runtime: Runtime.Runtime<never>,
  limits: HttpLimits,
  traceRequests: boolean,
  meter?: RouteMeter
): RouteHandler => {
  const logUnexpected = (requestId: string, cause: Cause.Cause<unknown>) =>
    Runtime.runFork(
      runtime,
      Effect.logError(`${route.name} failed unexpectedly`, cause).pipe(
        Effect.annotateLogs({ requestId, route: route.id })
      )
    )

  const corsHeaders: HeaderList = route.cors === null ? [] : corsAnswerHeaders(route.cors)

  // One instance for the route: an error is an immutable value, and building one per request was a
  // measurable share of a build's cost.
  const tooLarge = new PayloadTooLarge({
    code: "PAYLOAD_TOO_LARGE",
    limitBytes: route.maxBodyBytes,
    message: `the body is over ${route.maxBodyBytes} bytes`
  })

  const writeFailure = (res: HttpResponse, requestId: string, startedAt: number, failure: HttpFailure, extra: string, close = false) => {
    if (failure.unexpected !== undefined) logUnexpected(requestId, failure.unexpected)
    writeResponse(res, failure.status, requestId, [["content-type", JSON_CONTENT_TYPE], ...corsHeaders, ...failure.headers], failure.body, {
      close,
      extraLines: extra
    })
    meter?.record(failure.status, startedAt)
  }

  const reject = (res: HttpResponse, requestId: string, startedAt: number, error: unknown, close = false) =>
    writeFailure(res, requestId, startedAt, errorToHttp(route.errors, error, requestId), "", close)

  const successHead = [["content-type", JSON_CONTENT_TYPE], ["cache-control", route.cacheControl], VARY_ACCEPT_ENCODING] as const
  const successHeaders = new ResponseHead([...successHead, ...corsHeaders])
  const codedHeaders: Record<ContentCoding, ResponseHead> = {
    br: new ResponseHead([...successHead, ["content-encoding", "br"], ...corsHeaders]),
    gzip: new ResponseHead([...successHead, ["content-encoding", "gzip"], ...corsHeaders])
  }

  function writeOk(
    res: HttpResponse,
    status: number,
    request: ServedRequest,
    headers: ResponseHead,
    bytes: string | Uint8Array,
    options: WriteOptions | undefined
  ): void {
    writeResponse(res, status, request.id, headers, bytes, options)
    meter?.record(status, request.startedAt)
  }

  /**
   * A success body, compressed when the client accepts a coding and the body is worth it: a
   * `PreEncoded` body keeps its compressed copies (so one reused per projection version is
   * compressed once per coding), any other is compressed for this request.
   */
  const writeSuccess = (
    res: HttpResponse,
    request: ServedRequest,
    status: number,
    body: string | Uint8Array,
    value: unknown,
    extra: string
  ) => {
    const options = extra === "" ? undefined : { extraLines: extra }
    const size = value instanceof PreEncoded ? value.body.length : body.length
    const coding = size < MIN_COMPRESSED_BYTES ? undefined : codingFor(request.header("accept-encoding"))
    // No closure per request here: a named one costs a `__name` call (tsx keeps names) on every read.
    if (coding === undefined) return writeOk(res, status, request, successHeaders, body, options)
    const compressed = value instanceof PreEncoded ? value.coded(coding, COMPRESS[coding]) : compressDynamic(body, coding)
    if (!(compressed instanceof Promise)) return writeOk(res, status, request, codedHeaders[coding], compressed, options)
    writeWhenSettled(res, compressed, (bytes) => {
      try {
        if (bytes === undefined) writeOk(res, status, request, successHeaders, body, options)
        else writeOk(res, status, request, codedHeaders[coding], bytes, options)
      } catch (defect) {
        lastResort(res, request.id, request.startedAt, defect)
      }
    })
  }

  const writeValue = (res: HttpResponse, request: ServedRequest, handled: unknown, extra: string) => {
    // A body encoded once per projection version goes out as it is, with nothing made per request.
    if (handled instanceof PreEncoded) return writeSuccess(res, request, route.preEncodedStatus, handled.wire, handled, extra)
    const own = handled instanceof WithHeaders ? handled : undefined
    const value = own === undefined ? handled : own.value
    const encoded = route.encodeSuccess(value)
    if (Either.isRight(encoded)) {
      const { body, status } = encoded.right
      writeSuccess(res, request, status, body, value, own === undefined ? extra : extra + joinHeaders(own.headers))
      return
    }
    const defect = new ParseResult.ParseError({ issue: encoded.left })
    writeFailure(res, request.id, request.startedAt, failureToHttp(route.errors, Cause.die(defect), request.id), extra)
  }

  const writeExit = (res: HttpResponse, request: ServedRequest, exit: Exit.Exit<unknown, unknown>, extra: string) => {
    if (Exit.isSuccess(exit)) return writeValue(res, request, exit.value, extra)
    writeFailure(res, request.id, request.startedAt, failureToHttp(route.errors, exit.cause, request.id), extra)
  }

  const writeSettled = (res: HttpResponse, request: ServedRequest, settled: Settled, extra: string) => {
    if (isExitEffect(settled)) return writeExit(res, request, settled, extra)
    if (Either.isRight(settled)) return writeValue(res, request, settled.right, extra)
    writeExit(res, request, Exit.fail(settled.left), extra)
  }

  /** The handler's outcome as it came when it needs no running (no `Exit` made for an `Either`). */
  const settledOf = (handled: Effect.Effect<unknown, unknown>): Settled | undefined =>
    isExitEffect(handled) || isEitherEffect(handled) ? handled : undefined

  // The last line of defence: a bug in the pipeline itself still gets an answer, never a hung socket
  // (and a uWS handler that returns without answering or onAborted would end the process).
  const lastResort = (res: HttpResponse, requestId: string, startedAt: number, defect: unknown) => {
    const id = requestId === "" ? requestIdFor("") : requestId
    try {
      writeFailure(res, id, startedAt, failureToHttp(globalErrorTable, Cause.die(defect), id), "")
    } catch {
      logUnexpected(id, Cause.die(defect))
      try {
        res.close()
      } catch {
        // already answered or closed
      }
    }
  }

  const callHandler = (input: Record<string, unknown>): Effect.Effect<unknown, unknown> => {
    try {
      return route.handler(input) as Effect.Effect<unknown, unknown>
    } catch (defect) {
      return Effect.die(defect)
    }
  }

  const afterMiddleware = (input: Record<string, unknown>) => (context: Context.Context<never>) =>
    Effect.provide(Effect.suspend(() => callHandler(input)), context)

  const traced = (input: Record<string, unknown>, request: RequestInfo, added: AddedHeaders) => {
    const guarded = route.middleware.length === 0
      ? callHandler(input)
      : Effect.flatMap(Effect.suspend(() => runMiddlewareChain(route.middleware, request, added)), afterMiddleware(input))
    return Effect.withSpan(guarded, route.name, {
      kind: "server",
      captureStackTrace: false,
      attributes: { "http.request.id": request.id }
    })
  }

  // Without tracing, a request runs no fiber as long as its middleware answers at once (cached key,
  // in-memory quota) and its handler returns a value (`Effect.succeed`, an `Either`, a `PreEncoded`
  // projection read); a fiber starts only from the first step that needs one.
  const run = (input: Record<string, unknown>, request: RequestInfo, added: AddedHeaders): Settled | Fiber.RuntimeFiber<unknown, unknown> => {
    if (traceRequests) return runSyncOrFork(runtime, traced(input, request, added))
    if (route.middleware.length === 0) {
      const handled = callHandler(input)
      return settledOf(handled) ?? runSyncOrFork(runtime, handled)
    }
    const chain = runMiddlewareChain(route.middleware, request, added)
    if (!isExitEffect(chain)) return runSyncOrFork(runtime, Effect.flatMap(chain, afterMiddleware(input)))
    if (Exit.isFailure(chain)) return chain
    const handled = callHandler(input)
    return settledOf(handled) ?? runSyncOrFork(runtime, Effect.provide(handled, chain.value))
  }

  const dispatch = (
    res: HttpResponse,
    request: ServedRequest,
    input: Record<string, unknown>,
    exchange: Exchange | undefined
  ) => {
    const added = route.middleware.length === 0 ? NONE_ADDED : new AddedHeaders()
    const outcome = run(input, request, added)
    if (isSettled(outcome)) {
      if (exchange === undefined) writeSettled(res, request, outcome, added.lines)
      else if (!exchange.aborted) res.cork(() => writeSettled(res, request, outcome, added.lines))
      return
    }
    // What runs from here on may run after the response became untouchable.
    request.pin()
    const pending = exchange ?? new Exchange(res, runtime)
    pending.follow(outcome)
    outcome.addObserver((exit) => {
      if (pending.aborted) return
      try {
        res.cork(() => writeExit(res, request, exit, added.lines))
      } catch (defect) {
        lastResort(res, request.id, request.startedAt, defect)
      }
    })
  }

  // Path parameters as uWS lends them, read into one array per route: the decoder uses them at once.
  const rawPath: Array<string> = route.decoders.pathParameterNames.map(() => "")

  return (res: HttpResponse, req: HttpRequest) => {
    let requestId = ""
    const startedAt = meter === undefined ? 0 : performance.now()
    try {
      const headers: Array<string> = collecting = []
      collectedBytes = 0
      req.forEach(collectHeader)
      const headerBytes = collectedBytes
      requestId = requestIdFor(headerIn(headers, "x-request-id") ?? "")
      const path = req.getUrl()
      const query = req.getQuery() ?? ""
      if (path.length + query.length + 1 > limits.maxRequestTargetBytes) {
        const limitBytes = limits.maxRequestTargetBytes
        return reject(res, requestId, startedAt, new UriTooLong({ code: "URI_TOO_LONG", limitBytes, message: `the path and query are over ${limitBytes} bytes` }))
      }
      if (headerBytes > limits.maxHeaderBytes) {
        const limitBytes = limits.maxHeaderBytes
        return reject(res, requestId, startedAt, new HeadersTooLarge({ code: "HEADERS_TOO_LARGE", limitBytes, message: `the headers are over ${limitBytes} bytes` }))
      }
      const request = new ServedRequest(requestId, route.method, path, query, headers, res, startedAt)
      const input: Record<string, unknown> = { request }
      const decoders = route.decoders
      if (decoders.path !== undefined) {
        for (let i = 0; i < rawPath.length; i++) rawPath[i] = req.getParameter(i)
        const decoded = decoders.path(rawPath)
        if (Either.isLeft(decoded)) return reject(res, requestId, startedAt, decoded.left)
        input.path = decoded.right
      }
      if (decoders.query !== undefined) {
        const decoded = decoders.query(query)
        if (Either.isLeft(decoded)) return reject(res, requestId, startedAt, decoded.left)
        input.urlParams = decoded.right
      }
      if (decoders.headers !== undefined) {
        const decoded = decoders.headers(headerRecord(headers))
        if (Either.isLeft(decoded)) return reject(res, requestId, startedAt, decoded.left)
        input.headers = decoded.right
      }
      const decodePayload = decoders.payload
      if (decodePayload === undefined) return dispatch(res, request, input, undefined)

      const limitBytes = route.maxBodyBytes
      const declared = headerIn(headers, "content-length")
      // The body stays unread, so the connection cannot be reused: close it after answering.
      if (declared !== undefined && !(Number(declared) <= limitBytes)) return reject(res, requestId, startedAt, tooLarge, true)
      const exchange = new Exchange(res, runtime)
      readBody(
        res,
        limitBytes,
        (body) => {
          if (exchange.aborted) return
          try {
            const decoded = decodePayload(body)
            if (Either.isLeft(decoded)) return res.cork(() => reject(res, requestId, startedAt, decoded.left))
            input.payload = decoded.right
            dispatch(res, request, input, exchange)
          } catch (defect) {
            lastResort(res, requestId, startedAt, defect)
          }
        },
        () => {
          if (!exchange.aborted) res.cork(() => reject(res, requestId, startedAt, tooLarge, true))
        }
      )
    } catch (defect) {
      lastResort(res, requestId, startedAt, defect)
    }
  }
}
