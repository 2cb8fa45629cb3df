import { describe, expect, it } from "vitest"
import { updateFrame, updateFrameOfJson } from "../../src/ws/protocol.ts"
import { UpdateFrameWriter } from "../../src/ws/updateFrameWriter.ts"

const text = (bytes: Uint8Array) => Buffer.from(bytes).toString("utf8")

describe("UpdateFrameWriter", () => {
  it("writes the UTF-8 bytes of the update frame, equal to the frame encoded as one value", () => {
    const writer = new UpdateFrameWriter()
    const asOf = { slot: 7, blockTime: 1_800_000_000 }
    const data = { symbol: "€URC ✓", raw: "12", nested: [1, null, "\u{1F600}"] }
    const bytes = writer.write(JSON.stringify("vault:abc"), 42, JSON.stringify(asOf), JSON.stringify(data))
    expect(text(bytes)).toBe(updateFrame("vault:abc", 42, asOf, data))
    expect(JSON.parse(text(bytes))).toEqual({ type: "update", topic: "vault:abc", seq: 42, asOf, data })
  })

  it("grows its buffer for a frame larger than any before, and a later short frame is not mixed with it", () => {
    const writer = new UpdateFrameWriter()
    const large = JSON.stringify("é".repeat(200_000))
    expect(text(writer.write('"t"', 1, "null", large))).toBe(updateFrameOfJson('"t"', 1, "null", large))
    expect(text(writer.write('"t"', 2, "null", "0"))).toBe('{"type":"update","topic":"t","seq":2,"asOf":null,"data":0}')
  })
})
