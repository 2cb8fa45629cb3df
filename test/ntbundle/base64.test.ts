import { describe, expect, it } from "@effect/vitest"
import { FastCheck } from "effect"
import { fromBase64 } from "../../src/ntbundle/bytes.ts"

// The definition fromBase64 implements by hand.
const canonical = /^(?:[A-Za-z0-9+/]{4})*(?:[A-Za-z0-9+/]{2}==|[A-Za-z0-9+/]{3}=)?$/
const reference = (text: string) => (canonical.test(text) ? new Uint8Array(Buffer.from(text, "base64")) : undefined)

const chars = FastCheck.constantFrom(..."ABCxyz0189+/=-_ é\n".split(""))

describe("fromBase64", () => {
  it.prop(
    "accepts exactly the strict padded form and decodes as Node does",
    [FastCheck.oneof(
      FastCheck.array(chars, { maxLength: 14 }).map((list) => list.join("")),
      FastCheck.uint8Array({ maxLength: 300 }).map((bytes) => Buffer.from(bytes).toString("base64"))
    )],
    ([text]) => {
      const decoded = fromBase64(text)
      expect(decoded).toStrictEqual(reference(text))
      if (decoded !== undefined) expect(Object.getPrototypeOf(decoded)).toBe(Uint8Array.prototype)
    },
    { fastCheck: { numRuns: 5000 } }
  )

  it("rejects what Node's decoder would guess at", () => {
    for (const text of ["QQ", "QQ=", "Q===", "====", "QUJD\n", "QU-D", "QUJD=", "QQ==QQ=="]) expect(fromBase64(text)).toBeUndefined()
    expect(fromBase64("")).toStrictEqual(new Uint8Array(0))
    expect(fromBase64("QUJD")).toStrictEqual(new Uint8Array([65, 66, 67]))
    expect(fromBase64("QUI=")).toStrictEqual(new Uint8Array([65, 66]))
  })
})
