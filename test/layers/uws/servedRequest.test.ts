import { describe, expect, it } from "vitest"
import { headerIn, headerRecord } from "../../../layers/uws/servedRequest.ts"

describe("a request's headers as uWS gives them (name, value, name, value...)", () => {
  const pairs = ["host", "127.0.0.1", "x-api-key", "vg_sandbox_abc", "accept", "a/b", "accept", "c/d"]

  it("one header by name; absent is undefined; repeated ones joined with ', '", () => {
    expect(headerIn(pairs, "x-api-key")).toBe("vg_sandbox_abc")
    expect(headerIn(pairs, "authorization")).toBeUndefined()
    expect(headerIn(pairs, "accept")).toBe("a/b, c/d")
    expect(headerIn([], "host")).toBeUndefined()
  })

  it("all of them as a record, repeated ones joined alike", () => {
    expect(headerRecord(pairs)).toEqual({ host: "127.0.0.1", "x-api-key": "vg_sandbox_abc", accept: "a/b, c/d" })
    const odd = headerRecord(["__proto__", "x", "constructor", "y"])
    expect(Object.getPrototypeOf(odd)).toBeNull()
    expect({ ...odd }).toEqual({ ["__proto__"]: "x", constructor: "y" })
  })
})
