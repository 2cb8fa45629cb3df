import { describe, expect, it } from "vitest"
import { updateFrame, updateFrameOfJson } from "../../src/ws/protocol.ts"
import { UpdateFrameWriter } from "../../src/ws/updateFrameWriter.ts"

const text = (bytes: Uint8Array) => Buffer.from(bytes).toString("utf8")

describe("UpdateFrameWriter", () => {
  it("writes the data's UTF-8 bytes, then the update frame around them, equal to the frame encoded as one value", () => {
    const writer = new UpdateFrameWriter()
    const asOf = { slot: 7, blockTime: 1_800_000_000 }
    const data = { symbol: "€URC ✓", raw: "12", nested: [1, null, "\u{1F600}"] }
    expect(text(writer.writeData(JSON.stringify(data)))).toBe(JSON.stringify(data))
    const bytes = writer.frame(JSON.stringify("vault:abc"), 42, JSON.stringify(asOf))
    expect(text(bytes)).toBe(updateFrame("vault:abc", 42, asOf, data))
    expect(JSON.parse(text(bytes))).toEqual({ type: "update", topic: "vault:abc", seq: 42, asOf, data })
  })

  it("grows its buffer for a frame larger than any before, and a later short frame is not mixed with it", () => {
    const writer = new UpdateFrameWriter()
    const large = JSON.stringify("é".repeat(200_000))
    writer.writeData(large)
    expect(text(writer.frame('"t"', 1, "null"))).toBe(updateFrameOfJson('"t"', 1, "null", large))
    writer.writeData("0")
    expect(text(writer.frame('"t"', 2, "null"))).toBe('{"type":"update","topic":"t","seq":2,"asOf":null,"data":0}')
  })

  it("makes room for a head longer than the room it keeps before the data", () => {
    const writer = new UpdateFrameWriter()
    const topic = JSON.stringify(`user:${"a".repeat(600)}:€`)
    const asOf = JSON.stringify({ slot: 1, note: "ü".repeat(300) })
    writer.writeData('{"x":"ü"}')
    expect(text(writer.frame(topic, 3, asOf))).toBe(updateFrameOfJson(topic, 3, asOf, '{"x":"ü"}'))
    writer.writeData("[1]")
    expect(text(writer.frame('"t"', 4, "null"))).toBe('{"type":"update","topic":"t","seq":4,"asOf":null,"data":[1]}')
  })
})
