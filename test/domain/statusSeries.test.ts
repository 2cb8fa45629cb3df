import { describe, expect, it } from "vitest"
import { StatusSeries } from "../../src/domain/statusSeries.ts"
import type { ProjectionStatus } from "../../src/domain/status.ts"

const status = (slot: number, blockTime: number, lagSlots: number): ProjectionStatus => ({
  status: "live",
  asOf: { slot, blockTime },
  chainSlot: slot + lagSlots,
  lagSlots,
  lagSeconds: 0,
  checkpointSlot: null,
  reason: null,
  rpcUrl: null,
  wsUrl: null
})

describe("StatusSeries", () => {
  it("keeps the last `capacity` samples, oldest first", () => {
    const series = new StatusSeries(3)
    for (let i = 0; i < 5; i++) series.record(status(100 + i, 1_000 + i * 10, i), { requests: 0, wsConnections: i }, (1_000 + i * 10) * 1000)
    expect(series.samples().map((sample) => sample.lagSlots)).toEqual([2, 3, 4])
    expect(series.samples().map((sample) => sample.wsConnections)).toEqual([2, 3, 4])
    expect(series.samples().map((sample) => sample.at)).toEqual([1_020, 1_030, 1_040])
  })

  it("turns the request counter into a rate per second since the previous sample (0 for the first)", () => {
    const series = new StatusSeries(10)
    expect(series.record(status(1, 1_000, 0), { requests: 50, wsConnections: 0 }, 1_000_000).requestsPerSecond).toBe(0)
    expect(series.record(status(2, 1_010, 0), { requests: 175, wsConnections: 0 }, 1_010_000).requestsPerSecond).toBe(12.5)
    expect(series.record(status(3, 1_020, 0), { requests: 175, wsConnections: 0 }, 1_020_000).requestsPerSecond).toBe(0)
  })

  it("measures lag in seconds from the projected slot's block time, so a stalled projection shows a growing lag", () => {
    const series = new StatusSeries(10)
    const stalled = status(7, 1_000, 3)
    expect(series.record(stalled, { requests: 0, wsConnections: 0 }, 1_002_500).lagSeconds).toBe(2)
    expect(series.record(stalled, { requests: 0, wsConnections: 0 }, 1_030_000).lagSeconds).toBe(30)
    expect(series.record({ ...stalled, asOf: null, lagSlots: null, status: "starting" }, { requests: 0, wsConnections: 0 }, 1_040_000))
      .toMatchObject({ lagSeconds: null, lagSlots: null, status: "starting" })
  })

  it("refuses a capacity that is not a positive integer", () => {
    expect(() => new StatusSeries(0)).toThrow()
  })
})
