import http from "node:http"
import type { AddressInfo } from "node:net"
import { afterAll, beforeAll, describe, expect, it } from "vitest"
import { postLoad } from "../../src/bench/support/postLoad.ts"

/** The benchmarks' POST load client (in its worker thread) against a real HTTP server on loopback. */
let server: http.Server
const received: Array<string> = []

beforeAll(async () => {
  server = http.createServer((request, response) => {
    let body = ""
    request.on("data", (chunk) => (body += String(chunk)))
    request.on("end", () => {
      received.push(`${request.url} ${body}`)
      const { n } = JSON.parse(body) as { n: number }
      const answer = JSON.stringify({ echo: "x".repeat(n % 7) })
      // a length, not chunks: the client reads Content-Length framing only, as the gateway answers
      response.writeHead(n % 5 === 0 ? 429 : 200, { "content-type": "application/json", "content-length": Buffer.byteLength(answer) })
      response.end(answer)
    })
  })
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve))
})

afterAll(() => new Promise<void>((resolve) => server.close(() => resolve())))

const port = () => (server.address() as AddressInfo).port

describe("postLoad", () => {
  it("sends each request once over its connections and counts the answers that are not 200", async () => {
    received.length = 0
    const result = await postLoad({ port: port(), connections: 4, total: 200, next: (n) => ({ path: `/r/${n}`, body: JSON.stringify({ n }) }) })
    expect([...received].sort()).toEqual(Array.from({ length: 200 }, (_, n) => `/r/${n} ${JSON.stringify({ n })}`).sort())
    expect(result.non200).toBe(40)
    expect(result.p50Ms).toBeGreaterThan(0)
    expect(result.p99Ms).toBeGreaterThanOrEqual(result.p50Ms)
  })

  it("paced, never sends a request before it is due", async () => {
    received.length = 0
    const started = performance.now()
    const result = await postLoad({ port: port(), connections: 2, total: 100, ratePerSecond: 200, next: (n) => ({ path: "/p", body: JSON.stringify({ n }) }) })
    // the 100th request is due at 495 ms
    expect(performance.now() - started).toBeGreaterThanOrEqual(495)
    expect(received).toHaveLength(100)
    expect(result.non200).toBe(20)
    expect(result.requestsPerSecond).toBeLessThanOrEqual(205)
  })
})
