import { describe, expect, it } from "vitest"
import { PreEncoded } from "../../src/api/preEncoded.ts"

describe("PreEncoded.wire", () => {
  it("sends a body as its string once, then as the same UTF-8 bytes every time after", () => {
    const body = new PreEncoded(`{"name":"Vault — β","n":1}`)
    expect(body.wire).toBe(body.body)
    const bytes = body.wire
    expect(bytes).toBeInstanceOf(Uint8Array)
    expect(Buffer.from(bytes as Uint8Array).toString("utf8")).toBe(body.body)
    expect(body.wire).toBe(bytes)
  })
})
