import { describe, expect, it } from "@effect/vitest"
import type { Decoder } from "@solana/kit"
import { Either, FastCheck } from "effect"
import { decodeAt } from "../../src/ntbundle/errors.ts"
import { decodeEvent, EVENT_DISCRIMINATORS, type EventName, encodeEvent, type NtEvent } from "../../src/ntbundle/events.ts"
import { readAt, structReader } from "../../src/ntbundle/fieldReader.ts"
import { EVENT_LAYOUTS } from "../../src/ntbundle/generated/events.ts"
import { structArbitrary } from "../support/fieldArbitraries.ts"

const eventNames = Object.keys(EVENT_LAYOUTS) as Array<EventName>

/** What the kit codec alone decodes (the reference the direct reader must match). */
const kitDecode = (name: EventName, bytes: Uint8Array) =>
  Either.map(decodeAt(name, EVENT_LAYOUTS[name].codec as Decoder<unknown>, new Uint8Array(bytes), 8), (data) => ({ name, data }))

const encoded = FastCheck.constantFrom(...eventNames).chain((name) =>
  structArbitrary(EVENT_LAYOUTS[name].fields).map((data) => ({ name, bytes: encodeEvent({ name, data } as unknown as NtEvent) }))
)

describe("direct field reader", () => {
  it.prop(
    "decodes every event exactly as the kit codec does",
    [encoded],
    ([{ bytes, name }]) => {
      const direct = readAt(structReader(EVENT_LAYOUTS[name].fields), bytes, 8)
      expect(direct).toBeDefined()
      expect(Either.right({ name, data: direct })).toStrictEqual(kitDecode(name, bytes))
      expect(decodeEvent(bytes)).toStrictEqual(kitDecode(name, bytes))
    },
    { fastCheck: { numRuns: 3000 } }
  )

  it.prop(
    "gives up on data the codec rejects, so decodeEvent reports the codec's error",
    [
      FastCheck.constantFrom(...eventNames),
      FastCheck.uint8Array({ maxLength: 300 }),
      encoded,
      FastCheck.nat()
    ],
    ([name, tail, event, cut]) => {
      const hostile = new Uint8Array([...EVENT_DISCRIMINATORS[name], ...tail])
      const truncated = event.bytes.subarray(0, 8 + (cut % (event.bytes.length - 8)))
      for (const [eventName, bytes] of [[name, hostile], [event.name, truncated]] as const) {
        const reference = kitDecode(eventName, bytes)
        const direct = readAt(structReader(EVENT_LAYOUTS[eventName].fields), bytes, 8)
        if (Either.isLeft(reference)) expect(direct).toBeUndefined()
        expect(decodeEvent(bytes)).toStrictEqual(reference)
      }
    },
    { fastCheck: { numRuns: 3000 } }
  )

  it("reads an Option tag above 1 as a failure, not as None", () => {
    const fields = [{ name: "value", idlName: "value", type: { option: "u8" as const } }]
    expect(readAt(structReader(fields), new Uint8Array([2, 7]), 0)).toBeUndefined()
    expect(readAt(structReader(fields), new Uint8Array([0]), 0)).toStrictEqual({ value: null })
    expect(readAt(structReader(fields), new Uint8Array([1, 7]), 0)).toStrictEqual({ value: 7 })
  })
})
