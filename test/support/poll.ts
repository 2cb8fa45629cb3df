import { Duration, Effect } from "effect"

/** Runs `check` every 10 ms until `accept` takes its value (3 s at most), else dies naming `what`. */
export const poll = <A, E, R>(check: Effect.Effect<A, E, R>, accept: (a: A) => boolean, what: string) =>
  Effect.gen(function*() {
    for (let i = 0; i < 300; i++) {
      const value = yield* check
      if (accept(value)) return value
      yield* Effect.sleep(Duration.millis(10))
    }
    return yield* Effect.die(new Error(`timed out waiting for ${what}`))
  })
