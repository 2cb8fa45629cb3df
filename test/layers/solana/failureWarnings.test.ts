import { afterEach, describe, expect, it, vi } from "vitest"
import { Effect, Logger } from "effect"
import { makeFailureWarnings } from "../../../layers/solana/failureWarnings.ts"

describe("warnings of a refresh that keeps failing", () => {
  afterEach(() => vi.restoreAllMocks())

  it("warn at once, then with a growing gap and the count, and once on recovery", () => {
    let now = 1_000_000
    vi.spyOn(Date, "now").mockImplementation(() => now)
    const lines: Array<string> = []
    const logger = Logger.make(({ logLevel, message }) => lines.push(`${logLevel.label} ${String(message)}`))
    const run = (effect: Effect.Effect<void>) => Effect.runSync(effect.pipe(Effect.provide(Logger.replace(Logger.defaultLogger, logger))))
    const warnings = makeFailureWarnings("getLatestBlockhash")

    // a node down for 40 s, refreshed every 1.5 s
    for (let t = 0; t <= 40_000; t += 1_500) {
      now = 1_000_000 + t
      run(warnings.failed("connection refused"))
    }
    expect(lines).toEqual([
      "WARN getLatestBlockhash failed: connection refused",
      "WARN getLatestBlockhash failed (5 failures in a row; again in 10 s if it still fails): connection refused",
      "WARN getLatestBlockhash failed (12 failures in a row; again in 20 s if it still fails): connection refused",
      "WARN getLatestBlockhash failed (26 failures in a row; again in 40 s if it still fails): connection refused"
    ])
    run(warnings.succeeded)
    run(warnings.succeeded)
    expect(lines.slice(4)).toEqual(["INFO getLatestBlockhash works again after 27 failure(s)"])
    // after recovering, the next failure is news again
    run(warnings.failed("timeout"))
    expect(lines.at(-1)).toBe("WARN getLatestBlockhash failed: timeout")
  })
})
