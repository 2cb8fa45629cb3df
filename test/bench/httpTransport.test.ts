import { describe, expect, it } from "vitest"
import { run } from "../../src/bench/httpTransport.ts"

describe("the httpTransport benchmark", () => {
  // Its bare routes must answer the bytes the gateway's routes answer (it refuses to measure otherwise):
  // the /status body grew fields once and the benchmark stopped running.
  it("runs against its reference routes, with the same body as the gateway's /status", async () => {
    const figures = await run({ rounds: 1, durationMs: 150, latencyRate: 500, warmUpMs: 100 })
    expect(figures["bodyBytes"]).toBeGreaterThan(200)
    expect(figures["errors"]).toBe(0)
    expect(figures["pipelinedTransportReqPerSec"]).toBeGreaterThan(0)
    expect(figures["keepAliveBareReqPerSec"]).toBeGreaterThan(0)
  }, 60_000)
})
