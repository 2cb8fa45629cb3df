import { describe, expect, it } from "vitest"
import type { HttpResponse } from "uwebsockets"
import { ResponseHead, writeResponse } from "../../../layers/uws/respond.ts"
import { HeaderLines, joinHeaders } from "../../../src/api/headerLines.ts"

/** What `writeResponse` hands uWS, as the header block uWS writes (`name: value\r\n` per call). */
const written = (write: (res: HttpResponse) => void) => {
  let head = ""
  let body = ""
  const res = {
    writeStatus: (status: string) => (head = `${status}\r\n${head}`, res),
    writeHeader: (name: string | Uint8Array, value: string | Uint8Array) => {
      const text = (part: string | Uint8Array) => typeof part === "string" ? part : Buffer.from(part).toString()
      head += `${text(name)}: ${text(value)}\r\n`
      return res
    },
    end: (sent: string | Uint8Array) => (body = typeof sent === "string" ? sent : Buffer.from(sent).toString(), res)
  }
  write(res as unknown as HttpResponse)
  return { head, body }
}

describe("response headers joined into one header line", () => {
  it("joins each header as its own CRLF line after the first", () => {
    expect(joinHeaders([["content-type", "application/json"], ["x-ratelimit-remaining", "7"]])).toBe(
      "\r\ncontent-type: application/json\r\nx-ratelimit-remaining: 7"
    )
    expect(joinHeaders([])).toBe("")
    expect(HeaderLines.of([["cache-control", "no-store"]]).text).toBe("\r\ncache-control: no-store")
    const limit = HeaderLines.of([["x-ratelimit-limit", "10"]])
    const reset = HeaderLines.of([["x-ratelimit-reset", "1800000000"]])
    const remaining = HeaderLines.numbered(limit, "x-ratelimit-remaining", reset)
    expect(remaining(7).text).toBe("\r\nx-ratelimit-limit: 10\r\nx-ratelimit-remaining: 7\r\nx-ratelimit-reset: 1800000000")
    expect(remaining(0).text).toBe("\r\nx-ratelimit-limit: 10\r\nx-ratelimit-remaining: 0\r\nx-ratelimit-reset: 1800000000")
    expect(HeaderLines.of(limit)).toBe(limit)
  })

  it("refuses a name or value with a line break, which would forge headers", () => {
    expect(() => joinHeaders([["x-a", "1\r\nset-cookie: x=1"]])).toThrow(/line break/)
    expect(() => joinHeaders([["x-a\n", "1"]])).toThrow(/line break/)
    expect(() => HeaderLines.of([["x-a", "\n"]])).toThrow(/line break/)
    expect(() => HeaderLines.numbered(HeaderLines.empty, "x-a\r\nx-b", HeaderLines.empty)).toThrow(/line break/)
    expect(() => new ResponseHead([["x-a", "1\r\nset-cookie: x=1"]])).toThrow(/line break/)
  })

  it("a route's fixed headers go out with the request id, nosniff and the per-request headers", () => {
    const block = new ResponseHead([["content-type", "application/json"], ["cache-control", "no-store"]])
    expect(written((res) => writeResponse(res, 200, "id-1", block, "{}", { extraLines: HeaderLines.numbered(HeaderLines.empty, "x-ratelimit-remaining", HeaderLines.empty)(7).text }))).toEqual({
      head: "x-content-type-options: nosniff\r\ncontent-type: application/json\r\ncache-control: no-store\r\nx-request-id: id-1\r\nx-ratelimit-remaining: 7\r\n",
      body: "{}"
    })
    expect(written((res) => writeResponse(res, 404, "id-2", [["content-type", "application/json"]], "{}")).head).toBe(
      "404 Not Found\r\nx-content-type-options: nosniff\r\ncontent-type: application/json\r\nx-request-id: id-2\r\n"
    )
  })
})
