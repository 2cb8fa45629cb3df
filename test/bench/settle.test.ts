import { describe, expect, it } from "vitest"
import { settle } from "../../src/bench/support/settle.ts"

describe("settle between benchmarks", () => {
  it("goes on after two quiet windows", async () => {
    // every share of busy time is under 1.01: each window counts as quiet
    const { waitedMs, settled } = await settle({ busyShare: 1.01, windowMs: 50, maxMs: 5_000 })
    expect(settled).toBe(true)
    expect(waitedMs).toBeGreaterThanOrEqual(90)
    expect(waitedMs).toBeLessThan(2_000)
  })

  it("gives up after maxMs on a machine that never counts as quiet", async () => {
    const { waitedMs, settled } = await settle({ busyShare: 0, windowMs: 50, maxMs: 300 })
    expect(settled).toBe(false)
    expect(waitedMs).toBeGreaterThanOrEqual(300)
  })
})
