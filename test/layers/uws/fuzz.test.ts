import { describe, expect, it, layer } from "@effect/vitest"
import { Effect } from "effect"
import { HttpListener } from "../../../layers/uws/HttpServer.ts"
import { rawRequest, type RawResponse } from "../../support/httpRaw.ts"
import { gatewayForTest } from "../../../src/bench/support/httpTestServer.ts"
import { liveStatus, ProjectionControl } from "../../../src/bench/support/projectionTest.ts"
import { fixtureServer } from "./fixtureApi.ts"

/** Deterministic PRNG (mulberry32), so a failure can be replayed. */
const prng = (seed: number) => () => {
  seed = (seed + 0x6d2b79f5) | 0
  let t = Math.imul(seed ^ (seed >>> 15), 1 | seed)
  t = (t + Math.imul(t ^ (t >>> 7), 61 | t)) ^ t
  return ((t ^ (t >>> 14)) >>> 0) / 4294967296
}

const ADDRESS = "BUNDDh4P5XviMm1f3gCvnq2qKx6TGosAGnoUK12e7cXU"
const NASTY = ["%", "%zz", "%E0%A4%A", "%00", "%C3", "..", "%2e%2e", "é", "%F0%9F%92%A9", "\u00ff", "+", "&", "=", "__proto__", "constructor", "x".repeat(300), "-1", "1e308", "NaN", "0x10", "[]", "{}", "null", "c12", ADDRESS, "11111111111111111111111111111111", ""]
const METHODS = ["GET", "GET", "GET", "POST", "POST", "PUT", "PATCH", "DELETE", "OPTIONS", "HEAD", "FOO", "get", "PROPFIND"]
const BODIES = [
  "",
  "{",
  "null",
  "[]",
  "{}",
  `{"name":"n","amountRaw":"1"}`,
  `{"name":"","amountRaw":"-1"}`,
  `{"name":${"9".repeat(400)}}`,
  `{"__proto__":{"admin":true},"name":"x","amountRaw":"1"}`,
  "\u0000\u0001\u0002binary",
  JSON.stringify({ name: "n", amountRaw: "1".repeat(3000) }),
  "x".repeat(70_000)
]

/** A route to aim at: its path and the methods it answers (most requests use one of them). */
type Target = readonly [path: string, methods: ReadonlyArray<string>]

const makeRequest = (random: () => number, targets: ReadonlyArray<Target>) => {
  const pick = <A>(items: ReadonlyArray<A>): A => items[Math.floor(random() * items.length)]!
  const encodeSome = (text: string) => (random() < 0.5 ? text : encodeURIComponent(text))
  const [target, methods] = pick(targets)
  let path = target
  const mutation = random()
  if (mutation < 0.08) path = `${path}/${encodeSome(pick(NASTY))}`
  else if (mutation < 0.3) path = path.replace(/[^/]+$/, encodeSome(pick(NASTY)))
  else if (mutation < 0.33) path = `${path}/`
  else if (mutation < 0.36) path = `//${path}`
  else if (mutation < 0.38) path = path.toUpperCase()
  path = path.replace(/[ \r\n]/g, "%20")
  const pairs: Array<string> = []
  const pairCount = random() < 0.4 ? 0 : Math.floor(random() * 8)
  for (let i = 0; i < pairCount; i++) {
    const key = pick(["limit", "tag", "cursor", "x", "limit", "startDate", "endDate", "vault", pick(NASTY)])
    pairs.push(random() < 0.1 ? key : `${key}=${pick(NASTY)}`)
  }
  const query = pairs.length === 0 ? "" : `?${pairs.join("&")}`.replace(/[ \r\n#]/g, "%20")
  const method = random() < 0.75 ? pick(methods) : pick(METHODS)
  const headers = ["Host: 127.0.0.1"]
  const headerCount = Math.floor(random() * 4)
  for (let i = 0; i < headerCount; i++) {
    headers.push(
      pick([
        `X-Api-Key: ${pick(["let-me-in", "nope", ""])}`,
        `Content-Type: ${pick(["application/json", "text/plain", "multipart/form-data; boundary=x", "garbage"])}`,
        `X-Request-Id: ${pick(["ok-1", "<bad>", "z".repeat(300)])}`,
        `X-Filler: ${"f".repeat(Math.floor(random() * 20_000))}`,
        `Accept: ${pick(["*/*", "application/json", "text/html"])}`,
        `X-Request-Id: dup`
      ])
    )
  }
  const body = ["POST", "PUT", "PATCH", "DELETE"].includes(method) && random() < 0.8 ? pick(BODIES) : ""
  if (body.length > 0) headers.push(`Content-Length: ${Buffer.byteLength(body)}`)
  const text = `${method} ${path}${query} HTTP/1.1\r\n${headers.join("\r\n")}\r\n\r\n${body}`
  return { text, method, label: `${method} ${path}${query}`.slice(0, 160) }
}

/** Requests broken at the HTTP level: uWS may close without answering; it must not answer 5xx or die. */
const BROKEN = [
  "GARBAGE\r\n\r\n",
  "GET / HTTP/1.1\r\n\r\n",
  "GET /status HTTP/1.1\r\nHost: x\r\nBad Header Line\r\n\r\n",
  "GET /status HTTP/9.9\r\nHost: x\r\n\r\n",
  "\u0000\u0001\u0002\r\n\r\n",
  `GET /status?${"q".repeat(100_000)} HTTP/1.1\r\nHost: x\r\n\r\n`,
  `GET /status HTTP/1.1\r\nHost: x\r\nX-Big: ${"b".repeat(200_000)}\r\n\r\n`,
  "POST /items HTTP/1.1\r\nHost: x\r\nContent-Length: -5\r\n\r\n",
  "POST /items HTTP/1.1\r\nHost: x\r\nTransfer-Encoding: chunked\r\n\r\nzz\r\n"
]

const fuzz = (targets: ReadonlyArray<Target>, seed: number, count: number, alive: string) =>
  Effect.gen(function*() {
    const { port } = yield* HttpListener
    const random = prng(seed)
    const requests = Array.from({ length: count }, () => makeRequest(random, targets))
    const failures: Array<string> = []
    const statuses = new Map<number, number>()
    const send = async (request: ReturnType<typeof makeRequest>) => {
      let response: RawResponse | undefined
      try {
        response = await rawRequest(port, request.text, { head: request.method === "HEAD", timeoutMs: 10_000 })
      } catch (error) {
        failures.push(`${request.label}: ${String(error)}`)
        return
      }
      if (response === undefined) return
      statuses.set(response.status, (statuses.get(response.status) ?? 0) + 1)
      if (response.status >= 500) failures.push(`${request.label}: ${response.status} ${response.body.slice(0, 200)}`)
      else if (response.status >= 400 && request.method !== "HEAD" && response.headers["content-type"]?.includes("json")) {
        const body = JSON.parse(response.body)
        if (body.success !== false || typeof body.error !== "string") failures.push(`${request.label}: no envelope`)
      }
      if (response.headers["x-request-id"] === undefined) failures.push(`${request.label}: no X-Request-Id`)
    }
    const queue = [...requests]
    yield* Effect.promise(() =>
      Promise.all(Array.from({ length: 16 }, async () => {
        for (let next = queue.shift(); next !== undefined; next = queue.shift()) await send(next)
      }))
    )
    for (const broken of BROKEN) {
      // Incomplete requests (a bad length, an unfinished chunk) wait for bytes that never come: no answer is fine.
      const response = yield* Effect.promise(() => rawRequest(port, broken, { timeoutMs: 500 }).catch(() => undefined))
      if (response !== undefined && response.status >= 500 && response.status !== 505) {
        failures.push(`broken ${JSON.stringify(broken.slice(0, 40))}: ${response.status}`)
      }
    }
    expect(failures).toEqual([])
    expect([...statuses.keys()].some((status) => status >= 400)).toBe(true)
    const after = yield* Effect.promise(() => rawRequest(port, `GET ${alive} HTTP/1.1\r\nHost: x\r\n\r\n`))
    expect(after?.status).toBe(200)
  })

describe("fuzz: thousands of malformed requests, no 5xx, the server still answers", () => {
  layer(gatewayForTest(), { excludeTestServices: true })((it) => {
    it.effect("the gateway", () =>
      Effect.gen(function*() {
        const control = yield* ProjectionControl
        yield* control.setStatus(liveStatus(5_000))
        const reads = [
          "/v2/vaults",
          `/v2/vault/${ADDRESS}`,
          `/v2/vault/${ADDRESS}/user/${ADDRESS}/balance`,
          `/v2/vault/${ADDRESS}/user/${ADDRESS}/pending`,
          `/v2/user/${ADDRESS}/portfolio`,
          "/v2/platform/stats",
          `/v2/vault/${ADDRESS}/snapshots?limit=5`,
          `/v2/vault/${ADDRESS}/metrics`,
          "/api/v1/vaults",
          "/api/v1/vault/76/config",
          "/api/v1/vault/76/metrics",
          "/api/v1/vault/76/snapshots",
          `/v2/referrer/${ADDRESS}/summary`,
          `/v2/referrer/${ADDRESS}/users?limit=5`,
          `/v2/referrer/${ADDRESS}/payouts?limit=5`,
          `/v2/referrer/${ADDRESS}/flows?startDate=2026-01-01`,
          "/v2/partner/agreements"
        ]
        const targets: Array<Target> = ["/health", "/status", "/ready", "/openapi.json", "/nope", "/", ...reads].map((path) => [path, ["GET"]])
        yield* fuzz(targets, 1, 1500, "/health")
      }), { timeout: 120_000 })
  })

  // The fixture's routes that answer 5xx or never answer on purpose are left out.
  layer(fixtureServer(), { excludeTestServices: true })((it) => {
    it.effect("a contract with parameters, query schemas, bodies and middleware", () =>
      fuzz(
        [
          ["/items", ["GET", "POST", "POST"]],
          [`/items/${ADDRESS}`, ["GET", "DELETE"]],
          ["/items/11111111111111111111111111111111", ["GET"]],
          ["/lenient", ["GET"]],
          ["/whoami", ["GET"]],
          ["/slow", ["GET"]],
          ["/limited", ["GET"]]
        ],
        2,
        2500,
        "/items"
      ), { timeout: 120_000 })
  })
})
