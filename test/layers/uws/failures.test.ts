import { describe, expect, it, layer } from "@effect/vitest"
import { Cause, Effect, HashMap, Layer, Logger } from "effect"
import { HttpListener } from "../../../layers/uws/HttpServer.ts"
import { fetchJson } from "../../support/httpFetch.ts"
import { rawGet } from "../../support/httpRaw.ts"
import { fixtureServer } from "./fixtureApi.ts"

interface LogLine {
  readonly level: string
  readonly text: string
  readonly annotations: Record<string, unknown>
}
const logLines: Array<LogLine> = []
const CaptureLogs = Logger.replace(
  Logger.defaultLogger,
  Logger.make(({ annotations, cause, logLevel, message }) => {
    logLines.push({
      level: logLevel.label,
      text: `${JSON.stringify(message)} ${Cause.pretty(cause)}`,
      annotations: Object.fromEntries(HashMap.toEntries(annotations))
    })
  })
)

const get = (path: string, init?: RequestInit) => Effect.flatMap(HttpListener, ({ url }) => fetchJson(`${url}${path}`, init))

describe("failures become HTTP answers with the envelope and X-Request-Id", () => {
  layer(fixtureServer({ limits: { maxRequestTargetBytes: 512, maxHeaderBytes: 2048 } }).pipe(Layer.provide(CaptureLogs)), { excludeTestServices: true })(
    (it) => {
      it.effect("defects, sync throws, undeclared errors and bad successes are 500 INTERNAL, logged with the request id", () =>
        Effect.gen(function*() {
          const causes: Record<string, string> = {
            "/defect": "boom",
            "/throws": "thrown synchronously by the handler",
            "/undeclared": "NotInTheContract",
            "/bad-success": "Expected number"
          }
          for (const [path, cause] of Object.entries(causes)) {
            logLines.length = 0
            const response = yield* get(path)
            const requestId = response.headers.get("x-request-id")
            expect(response.status, path).toBe(500)
            expect(response.body).toEqual({
              success: false,
              error: "INTERNAL",
              requestId,
              message: `unexpected failure; it is logged under request id ${requestId}`
            })
            yield* Effect.promise(() => new Promise((resolve) => setTimeout(resolve, 20)))
            const logged = logLines.find((line) => line.annotations.requestId === requestId)
            expect(logged?.level, path).toBe("ERROR")
            expect(logged?.text, path).toContain(cause)
            expect(logged?.annotations.route, path).toMatch(/^behaviour\./)
          }
          expect((yield* get("/items?limit=3")).status).toBe(200)
        }))

      it.effect("429 carries X-RateLimit-* and Retry-After; 503 carries Retry-After", () =>
        Effect.gen(function*() {
          const limited = yield* get("/limited")
          expect(limited.status).toBe(429)
          expect(limited.body).toEqual({
            success: false,
            error: "RATE_LIMITED",
            message: "quota exceeded",
            limit: 100,
            remaining: 0,
            reset: 1_700_000_060,
            retryAfterSeconds: 17
          })
          expect(limited.headers.get("x-ratelimit-limit")).toBe("100")
          expect(limited.headers.get("x-ratelimit-remaining")).toBe("0")
          expect(limited.headers.get("x-ratelimit-reset")).toBe("1700000060")
          expect(limited.headers.get("retry-after")).toBe("17")

          const unavailable = yield* get("/unavailable")
          expect(unavailable.status).toBe(503)
          expect(unavailable.headers.get("retry-after")).toBe("7")
          expect(unavailable.body).toMatchObject({ success: false, error: "PROJECTION_UNAVAILABLE", status: "catching_up" })
          expect(unavailable.body).not.toHaveProperty("data")
        }))

      it.effect("unknown route 404, other method 405 with Allow", () =>
        Effect.gen(function*() {
          const missing = yield* get("/nope/nothing?x=1")
          expect(missing.status).toBe(404)
          expect(missing.body).toMatchObject({ success: false, error: "NOT_FOUND" })
          expect(missing.headers.get("x-request-id")).toBeTruthy()
          expect((yield* get("/items/", { method: "GET" })).status).toBe(404)

          const put = yield* get("/items/BUNDDh4P5XviMm1f3gCvnq2qKx6TGosAGnoUK12e7cXU", { method: "PUT" })
          expect(put.status).toBe(405)
          expect(put.body).toMatchObject({ success: false, error: "METHOD_NOT_ALLOWED", allow: ["GET", "DELETE"] })
          expect(put.headers.get("allow")).toBe("GET, DELETE")
          expect(put.headers.get("x-request-id")).toBeTruthy()
          const head = yield* get("/items", { method: "HEAD" })
          expect(head.status).toBe(405)
          expect(head.headers.get("allow")).toBe("GET, POST")
        }))

      it.effect("request target over the limit is 414, headers over the limit 431", () =>
        Effect.gen(function*() {
          const longQuery = yield* get(`/items?cursor=c${"1".repeat(600)}`)
          expect(longQuery.status).toBe(414)
          expect(longQuery.body).toMatchObject({ success: false, error: "URI_TOO_LONG", limitBytes: 512 })
          const bigHeaders = yield* get("/items", { headers: { "x-filler": "y".repeat(3000) } })
          expect(bigHeaders.status).toBe(431)
          expect(bigHeaders.body).toMatchObject({ success: false, error: "HEADERS_TOO_LARGE", limitBytes: 2048 })
          expect(bigHeaders.headers.get("x-request-id")).toBeTruthy()
        }))

      it.effect("X-Request-Id: new and distinct per request, a sane incoming one echoed, an odd one replaced", () =>
        Effect.gen(function*() {
          const ids = new Set<string>()
          for (const path of ["/items", "/items", "/nope", "/limited", "/items?limit=x"]) {
            ids.add((yield* get(path)).headers.get("x-request-id")!)
          }
          expect(ids.size).toBe(5)
          const echoed = yield* get("/items", { headers: { "x-request-id": "trace-1234.abc:9" } })
          expect(echoed.headers.get("x-request-id")).toBe("trace-1234.abc:9")
          const { port } = yield* HttpListener
          const odd = yield* Effect.promise(() => rawGet(port, "/items", ["X-Request-Id: <script>alert(1)</script>"]))
          expect(odd?.headers["x-request-id"]).toMatch(/^[A-Za-z0-9_-]+-[0-9a-z]+$/)
          const tooLong = yield* get("/items", { headers: { "x-request-id": "a".repeat(200) } })
          expect(tooLong.headers.get("x-request-id")).not.toBe("a".repeat(200))
        }))
    }
  )
})
