import { Cause, Effect, Exit, Fiber } from "effect"

// A Ctrl-C in a terminal reaches every process of the foreground group, and `npm start` forwards
// the one it gets as well: the same keypress can arrive twice within milliseconds. Only a signal
// after this long counts as a second, forcing one.
const REPEAT_MS = 1_000
const PARENT_CHECK_MS = 1_000

/**
 * Under `npm start` (or `npm run`) npm is the process supervisors signal: if it goes away without
 * passing a signal on (SIGKILL, a crash), the server would keep running as an orphan. Stop then too.
 */
const watchParent = (stop: () => void): (() => void) => {
  if (process.env.npm_lifecycle_event === undefined) return () => {}
  const parent = process.ppid
  const timer = setInterval(() => {
    if (process.ppid !== parent) stop()
  }, PARENT_CHECK_MS)
  timer.unref()
  return () => clearInterval(timer)
}

/**
 * Runs a long-lived program until it ends or SIGINT/SIGTERM arrives; a signal interrupts it so every
 * scope closes in order (HTTP first, the database last). A second signal forces the exit.
 * Resolves to the process exit code.
 */
export const runMain = async (
  program: Effect.Effect<void, unknown>,
  /** One line for a failure a person can act on (no stack); null: the full cause. */
  describeFailure: (cause: Cause.Cause<unknown>) => string | null = () => null
): Promise<number> => {
  const fiber = Effect.runFork(program)
  let signalledAt: number | null = null
  const stop = () => {
    if (signalledAt !== null) return
    signalledAt = Date.now()
    Effect.runFork(Fiber.interrupt(fiber))
  }
  const onSignal = (signal: NodeJS.Signals) => {
    if (signalledAt !== null) {
      if (Date.now() - signalledAt < REPEAT_MS) return
      process.stderr.write(`vault-gateway: second ${signal}, exiting now\n`)
      process.exit(130)
    }
    process.stderr.write(`vault-gateway: ${signal} received, stopping\n`)
    stop()
  }
  process.on("SIGINT", onSignal)
  process.on("SIGTERM", onSignal)
  const unwatch = watchParent(() => {
    process.stderr.write("vault-gateway: npm, the parent process, has gone; stopping\n")
    stop()
  })
  const exit = await Effect.runPromise(Fiber.await(fiber))
  unwatch()
  process.off("SIGINT", onSignal)
  process.off("SIGTERM", onSignal)
  if (Exit.isSuccess(exit) || Cause.isInterruptedOnly(exit.cause)) return 0
  process.stderr.write(`vault-gateway: ${describeFailure(exit.cause) ?? Cause.pretty(exit.cause)}\n`)
  return 1
}
