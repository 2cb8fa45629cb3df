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

describe("PreEncoded.coded", () => {
  it("compresses once per coding and keeps the copy with the body", () => {
    const body = new PreEncoded(`{"n":1}`)
    const calls: Array<string> = []
    const compress = (tag: number) => (text: string) => {
      calls.push(text)
      return new Uint8Array([tag])
    }
    const gzip = body.coded("gzip", compress(1))
    expect(body.coded("gzip", compress(9))).toBe(gzip)
    expect(body.coded("br", compress(2))).toEqual(new Uint8Array([2]))
    expect(gzip).toEqual(new Uint8Array([1]))
    expect(calls).toEqual([body.body, body.body])
    // another body (the next projection version) starts with none
    expect(new PreEncoded(`{"n":1}`).coded("gzip", compress(3))).toEqual(new Uint8Array([3]))
  })

  it("shares a pending compression, keeps its bytes once done, and forgets a failed one", async () => {
    const body = new PreEncoded(`{"n":2}`)
    let made = 0
    const pending = body.coded("br", () => {
      made++
      return Promise.resolve(new Uint8Array([7]))
    })
    expect(pending).toBeInstanceOf(Promise)
    expect(body.coded("br", () => {
      made++
      return new Uint8Array([8])
    })).toBe(pending)
    await pending
    expect(body.coded("br", () => new Uint8Array([9]))).toEqual(new Uint8Array([7]))
    expect(made).toBe(1)

    const failing = body.coded("gzip", () => Promise.reject(new Error("zlib failed")))
    await expect(failing).rejects.toThrow("zlib failed")
    expect(body.coded("gzip", () => new Uint8Array([5]))).toEqual(new Uint8Array([5]))
  })
})
