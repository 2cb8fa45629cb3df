import { describe, expect, it } from "vitest"
import { HeaderBlock, joinHeaders } from "../../../layers/uws/respond.ts"

describe("response headers joined into one header line", () => {
  it("joins each header as its own CRLF line after the first", () => {
    expect(joinHeaders([["content-type", "application/json"], ["x-ratelimit-remaining", "7"]])).toBe(
      "\r\ncontent-type: application/json\r\nx-ratelimit-remaining: 7"
    )
    expect(joinHeaders([])).toBe("")
    expect(new HeaderBlock([["cache-control", "no-store"]]).lines).toBe("\r\ncache-control: no-store")
  })

  it("refuses a name or value with a line break, which would forge headers", () => {
    expect(() => joinHeaders([["x-a", "1\r\nset-cookie: x=1"]])).toThrow(/line break/)
    expect(() => joinHeaders([["x-a\n", "1"]])).toThrow(/line break/)
    expect(() => new HeaderBlock([["x-a", "\n"]])).toThrow(/line break/)
  })
})
