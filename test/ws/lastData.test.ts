import { describe, expect, it } from "vitest"
import { LastData } from "../../src/ws/lastData.ts"

const bytes = (text: string) => new Uint8Array(Buffer.from(text))

describe("LastData", () => {
  it("compares a topic's data with the last recorded, byte for byte, through longer and shorter values", () => {
    const last = new LastData()
    expect(last.has("a")).toBe(false)
    expect(last.equals("a", bytes(""))).toBe(false)
    last.record("a", bytes('{"v":1}'))
    expect(last.has("a")).toBe(true)
    expect(last.equals("a", bytes('{"v":1}'))).toBe(true)
    expect(last.equals("a", bytes('{"v":2}'))).toBe(false)
    expect(last.equals("a", bytes('{"v":1} '))).toBe(false)
    expect(last.equals("b", bytes('{"v":1}'))).toBe(false)
    // Shorter (kept in the same buffer), then much longer (a new one), then short again.
    last.record("a", bytes("[]"))
    expect(last.equals("a", bytes("[]"))).toBe(true)
    expect(last.equals("a", bytes('{"v":1}'))).toBe(false)
    const long = "x".repeat(10_000)
    last.record("a", bytes(long))
    expect(last.equals("a", bytes(long))).toBe(true)
    expect(last.equals("a", bytes(`${long.slice(1)}y`))).toBe(false)
    last.record("a", bytes("7"))
    expect(last.equals("a", bytes("7"))).toBe(true)
    expect(last.equals("a", bytes(long))).toBe(false)
    last.delete("a")
    expect(last.has("a")).toBe(false)
    expect(last.equals("a", bytes("7"))).toBe(false)
  })

  it("keeps a copy: the caller's buffer may be reused", () => {
    const last = new LastData()
    const scratch = bytes("abc")
    last.record("t", scratch)
    scratch[0] = 0x7a
    expect(last.equals("t", bytes("abc"))).toBe(true)
  })
})
