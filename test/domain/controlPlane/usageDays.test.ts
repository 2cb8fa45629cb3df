import { describe, expect, it } from "vitest"
import { usageByKey } from "../../../src/domain/controlPlane/usageDays.ts"

describe("usageByKey", () => {
  it("lists the last days up to today's UTC day, across a month's end", () => {
    const window = usageByKey(Date.parse("2026-03-01T23:59:59Z"), 3)
    expect(window.days).toEqual(["2026-02-27", "2026-02-28", "2026-03-01"])
    expect(usageByKey(Date.parse("2026-03-02T00:00:00Z"), 1).days).toEqual(["2026-03-02"])
  })

  it("lays each key's counts over the days: zeros where none, unknown keys and days outside left out", () => {
    const window = usageByKey(Date.parse("2026-03-01T12:00:00Z"), 3)
    const rows = window.align(
      [{ id: "a", name: "backend" }, { id: "b", name: "idle" }],
      [
        { keyId: "a", day: "2026-02-27", requests: 5 },
        { keyId: "a", day: "2026-03-01", requests: 7 },
        { keyId: "a", day: "2026-02-01", requests: 100 },
        { keyId: "z", day: "2026-03-01", requests: 9 }
      ]
    )
    expect(rows).toEqual([
      { keyId: "a", name: "backend", requests: [5, 0, 7] },
      { keyId: "b", name: "idle", requests: [0, 0, 0] }
    ])
  })
})
