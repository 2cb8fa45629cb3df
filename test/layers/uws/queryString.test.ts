import { Either } from "effect"
import { describe, expect, it } from "vitest"
import { parseQuery } from "../../../layers/uws/queryString.ts"

const parsed = (raw: string, max = 64) => Either.getOrThrow(parseQuery(raw, max))

describe("parseQuery", () => {
  it("decodes percent-encoding and '+' as a space; keeps empty values; skips empty pairs", () => {
    expect({ ...parsed("a=1&b=x%20y+z&c=&d&&e=%3D%26") }).toEqual({ a: "1", b: "x y z", c: "", d: "", e: "=&" })
    expect({ ...parsed("") }).toEqual({})
    expect({ ...parsed("k%C3%A9y=v") }).toEqual({ "kéy": "v" })
  })

  it("collects repeated keys in order", () => {
    expect({ ...parsed("t=1&u=0&t=2&t=3") }).toEqual({ t: ["1", "2", "3"], u: "0" })
  })

  it("treats __proto__ and constructor as plain keys", () => {
    const values = parsed("__proto__=x&constructor=y")
    expect(Object.getPrototypeOf(values)).toBeNull()
    expect(values["__proto__"]).toBe("x")
    expect(values["constructor"]).toBe("y")
    expect(({} as Record<string, unknown>)["x"]).toBeUndefined()
  })

  it("fails on bad percent-encoding, in keys or values", () => {
    for (const raw of ["a=%zz", "a=%", "a=%E0%A4%A", "%zz=1", "a=1&b=%C3"]) {
      expect(Either.isLeft(parseQuery(raw, 64)), raw).toBe(true)
    }
  })

  it("fails past the parameter limit", () => {
    expect(Either.isRight(parseQuery("a=1&a=2&a=3", 3))).toBe(true)
    const over = parseQuery("a=1&a=2&a=3&a=4", 3)
    expect(Either.isLeft(over) && over.left).toMatch(/more than 3/)
  })
})
