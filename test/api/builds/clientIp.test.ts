import { describe, expect, it } from "vitest"
import { clientIpOf } from "../../../src/api/builds/clientIp.ts"
import type { RequestInfo } from "../../../src/api/handlers.ts"

const request = (headers: Record<string, string>): RequestInfo =>
  ({ id: "r", method: "POST", path: "/", query: "", header: (name) => headers[name], remoteAddress: "10.0.0.1" })

describe("client IP for per-IP metering", () => {
  it("is the socket peer unless a trusted proxy is configured", () => {
    expect(clientIpOf(request({ "x-forwarded-for": "1.2.3.4" }), false)).toBe("10.0.0.1")
  })
  it("behind a trusted proxy, is the entry the proxy appended (a forged prefix does not count)", () => {
    expect(clientIpOf(request({ "x-forwarded-for": "6.6.6.6, 1.2.3.4" }), true)).toBe("1.2.3.4")
    expect(clientIpOf(request({}), true)).toBe("10.0.0.1")
    expect(clientIpOf(request({ "x-forwarded-for": " " }), true)).toBe("10.0.0.1")
  })
})
