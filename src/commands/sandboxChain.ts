import { Effect, type Scope } from "effect"
import { SandboxStartError } from "../sandbox/layer.ts"
import { createSandboxChain, type SandboxHandle, startSandbox } from "../sandbox/sandbox.ts"
import { installScenario, type Scenario, scenarioChainOptions, type ScenarioSandboxOptions } from "../sandbox/scenario/index.ts"
import { historyStartMs } from "../sandbox/scenario/config.ts"

const failed = (error: unknown) => new SandboxStartError({ message: error instanceof Error ? error.message : String(error) })

/** One history step at a time, yielding between steps: HTTP keeps answering, and a shutdown interrupts it promptly. */
const fastForward = (scenario: Scenario, now: number) =>
  Effect.gen(function*() {
    if (scenario.options.historyDays === 0) return
    const stepMs = Math.max(60_000, scenario.options.historyStepSeconds * 1_000)
    for (let until = historyStartMs(scenario.options, now) + stepMs; until < now; until += stepMs) {
      yield* Effect.try({ try: () => scenario.fastForward(until), catch: failed })
      yield* Effect.sleep(0)
    }
    yield* Effect.try({ try: () => scenario.fastForward(now), catch: failed })
  })

/**
 * The scenario sandbox in this process (`vault-gateway sandbox`, and `serve` without an RPC
 * endpoint): genesis days in the
 * past, history generated in the background, then JSON-RPC and PubSub on loopback until the scope
 * closes.
 */
export const scenarioSandboxScoped = (
  options: ScenarioSandboxOptions
): Effect.Effect<{ readonly rpcUrl: string; readonly wsUrl: string; readonly handle: SandboxHandle }, SandboxStartError, Scope.Scope> =>
  Effect.gen(function*() {
    const now = Date.now()
    const chain = createSandboxChain({ ...options, ...scenarioChainOptions(options, now) })
    const scenario = yield* Effect.try({ try: () => installScenario(chain, options), catch: failed })
    yield* Effect.addFinalizer(() => Effect.sync(() => scenario.stop()))
    yield* fastForward(scenario, now)
    const handle = yield* Effect.acquireRelease(
      Effect.tryPromise({ try: () => startSandbox({ ...options, chain }), catch: failed }),
      (handle) => Effect.promise(() => handle.close())
    )
    return { rpcUrl: handle.rpcUrl, wsUrl: handle.wsUrl, handle }
  })
