import { Cause, Effect, Exit, Fiber } from "effect"

/**
 * Runs a long-lived program until it ends or SIGINT/SIGTERM arrives; a signal interrupts it so every
 * scope closes in order (HTTP first, the database last). A second signal forces the exit.
 * Resolves to the process exit code.
 */
export const runMain = async (program: Effect.Effect<void, unknown>): Promise<number> => {
  const fiber = Effect.runFork(program)
  let signalled = false
  const onSignal = (signal: NodeJS.Signals) => {
    if (signalled) {
      process.stderr.write(`vault-gateway: second ${signal}, exiting now\n`)
      process.exit(130)
    }
    signalled = true
    Effect.runFork(Fiber.interrupt(fiber))
  }
  process.on("SIGINT", onSignal)
  process.on("SIGTERM", onSignal)
  const exit = await Effect.runPromise(Fiber.await(fiber))
  process.off("SIGINT", onSignal)
  process.off("SIGTERM", onSignal)
  if (Exit.isSuccess(exit) || Cause.isInterruptedOnly(exit.cause)) return 0
  process.stderr.write(`vault-gateway: ${Cause.pretty(exit.cause)}\n`)
  return 1
}
