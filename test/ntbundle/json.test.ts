import { describe, expect, it } from "@effect/vitest"
import { FastCheck } from "effect"
import { type EventName } from "../../src/ntbundle/events.ts"
import { EVENT_LAYOUTS } from "../../src/ntbundle/generated/events.ts"
import { toJson, toJsonText } from "../../src/ntbundle/json.ts"
import { structArbitrary } from "../support/fieldArbitraries.ts"

const eventNames = Object.keys(EVENT_LAYOUTS) as Array<EventName>

describe("toJsonText", () => {
  it("writes what JSON.stringify(toJson(value)) writes", () => {
    const values: Array<unknown> = [
      { a: 1n, b: -12345678901234567890n, c: "x\"y\\\n", d: null, e: undefined, f: true, g: 1.5, h: Number.NaN },
      { bytes: new Uint8Array([0, 15, 255]), list: [1n, undefined, null, "s", [2n]], nested: { deep: { v: 0n } } },
      [],
      {},
      [{ a: -0 }, Number.POSITIVE_INFINITY]
    ]
    for (const value of values) expect(toJsonText(value)).toBe(JSON.stringify(toJson(value)))
  })

  it.prop(
    "matches JSON.stringify(toJson(data)) for every event's data",
    [FastCheck.constantFrom(...eventNames).chain((name) => structArbitrary(EVENT_LAYOUTS[name].fields))],
    ([data]) => {
      expect(toJsonText(data)).toBe(JSON.stringify(toJson(data)))
    },
    { fastCheck: { numRuns: 2000 } }
  )

  it.prop(
    "matches it on arbitrary JSON-like values with bigints",
    [FastCheck.anything({ withBigInt: true, withTypedArray: true, withNullPrototype: true, withObjectString: false, withBoxedValues: false, withMap: false, withSet: false, withDate: false, withSparseArray: false })],
    ([value]) => {
      if (value === undefined) return
      expect(toJsonText(value)).toBe(JSON.stringify(toJson(value)))
    },
    { fastCheck: { numRuns: 2000 } }
  )
})
