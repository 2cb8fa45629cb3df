import { Effect } from "effect"

const FIRST_GAP_MS = 5_000
const MAX_GAP_MS = 60_000

/**
 * Warnings for a call repeated on a timer (a refresh): the first failure at once, then with a
 * growing gap (5 s, 10 s, ... up to a minute) and the count while it keeps failing, and one line
 * when it works again; an RPC node that is down does not fill the log every refresh.
 */
export const makeFailureWarnings = (what: string) => {
  let failures = 0
  let gapMs = FIRST_GAP_MS
  let nextWarnAt = 0
  return {
    failed: (reason: string) =>
      Effect.suspend(() => {
        failures++
        const now = Date.now()
        if (now < nextWarnAt) return Effect.void
        const repeated = failures > 1 ? ` (${failures} failures in a row; again in ${gapMs / 1000} s if it still fails)` : ""
        nextWarnAt = now + gapMs
        gapMs = Math.min(gapMs * 2, MAX_GAP_MS)
        return Effect.logWarning(`${what} failed${repeated}: ${reason}`)
      }),
    succeeded: Effect.suspend(() => {
      if (failures === 0) return Effect.void
      const count = failures
      failures = 0
      gapMs = FIRST_GAP_MS
      nextWarnAt = 0
      return Effect.logInfo(`${what} works again after ${count} failure(s)`)
    })
  }
}
