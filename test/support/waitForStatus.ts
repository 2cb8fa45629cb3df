import { Effect } from "effect"

/** Polls until the request gets `status`; returns how long that took (a defect after `withinMs`). */
export const waitForStatus = (request: Effect.Effect<{ readonly status: number }>, status: number, withinMs: number) =>
  Effect.gen(function*() {
    const start = Date.now()
    while (Date.now() - start < withinMs) {
      if ((yield* request).status === status) return Date.now() - start
      yield* Effect.sleep("50 millis")
    }
    return yield* Effect.die(new Error(`no ${status} within ${withinMs} ms`))
  })
