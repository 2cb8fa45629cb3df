import { describe, expect, it } from "vitest"
import { encodeEvent, type NtEvent } from "../../../src/ntbundle/events.ts"
import { EVENT_LAYOUTS } from "../../../src/ntbundle/generated/events.ts"
import { DEFINED_TYPE_FIELDS, type FieldDescriptor, type FieldType } from "../../../src/ntbundle/generated/types.ts"
import { encodeBase58 } from "../../../src/ntbundle/base58.ts"
import { createRandom, type Random } from "../../../src/sandbox/crypto/random.ts"
import { encodeEventFast } from "../../../src/sandbox/ntbundle/eventWriter.ts"

// Random values for every IDL field type, so every event layout is exercised at its edges.
const INTEGER_BITS: Record<string, [number, boolean]> = { u8: [8, false], i8: [8, true], u16: [16, false], i16: [16, true], u32: [32, false], i32: [32, true], u64: [64, false], i64: [64, true], u128: [128, false], i128: [128, true] }

const valueOf = (type: FieldType, random: Random): unknown => {
  if (typeof type === "string") {
    if (type === "bool") return random.chance(0.5)
    if (type === "pubkey") return encodeBase58(random.bytes(32))
    if (type === "f32") return Math.fround(random.nextFloat() * 1000)
    if (type === "f64") return random.nextFloat()
    const [bits, signed] = INTEGER_BITS[type]!
    const extreme = random.pick([0n, 1n, 2n ** BigInt(bits) - 1n, random.bigintBelow(2n ** BigInt(bits))])
    const value = signed ? BigInt.asIntN(bits, extreme) : extreme
    return bits > 32 ? value : Number(value)
  }
  if ("bytes" in type) return random.bytes(type.bytes)
  if ("array" in type) return Array.from({ length: type.length }, () => valueOf(type.array, random))
  if ("vec" in type) return Array.from({ length: random.int(0, 5) }, () => valueOf(type.vec, random))
  if ("option" in type) return random.chance(0.3) ? null : valueOf(type.option, random)
  return structOf(DEFINED_TYPE_FIELDS[type.defined], random)
}

const structOf = (fields: ReadonlyArray<FieldDescriptor>, random: Random): Record<string, unknown> =>
  Object.fromEntries(fields.map((field) => [field.name, valueOf(field.type, random)]))

describe("encodeEventFast", () => {
  it("writes exactly the bytes of the golden-tested encodeEvent, for every event layout", () => {
    const random = createRandom("event-writer")
    for (const name of Object.keys(EVENT_LAYOUTS) as Array<NtEvent["name"]>) {
      for (let round = 0; round < 40; round++) {
        const event = { name, data: structOf(EVENT_LAYOUTS[name].fields, random) } as unknown as NtEvent
        expect([name, Buffer.from(encodeEventFast(event)).toString("hex")]).toEqual([name, Buffer.from(encodeEvent(event)).toString("hex")])
      }
    }
  })
})
