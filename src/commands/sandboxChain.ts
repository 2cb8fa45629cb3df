import path from "node:path"
import { Effect, Runtime, type Scope } from "effect"
import { SandboxStartError } from "../sandbox/layer.ts"
import type { SandboxHandle } from "../sandbox/sandbox.ts"
import type { ScenarioSandboxOptions } from "../sandbox/scenario/index.ts"
import { openSandboxChain } from "./sandboxChainOpen.ts"

/** Where `serve` keeps its sandbox chain inside DATA_DIR. */
export const sandboxChainDir = (dataDir: string) => path.join(dataDir, "sandbox")

/** `openSandboxChain` as a scoped effect: interrupting it stops the start, closing the scope closes the chain. */
export const scenarioSandboxScoped = (
  options: ScenarioSandboxOptions & { readonly persistDir?: string }
): Effect.Effect<
  { readonly rpcUrl: string; readonly wsUrl: string; readonly handle: SandboxHandle; readonly resumed: boolean },
  SandboxStartError,
  Scope.Scope
> =>
  Effect.gen(function*() {
    const runtime = yield* Effect.runtime<never>()
    const warn = (message: string) => Runtime.runFork(runtime)(Effect.logWarning(message))
    const opened = yield* Effect.acquireRelease(
      Effect.tryPromise({
        try: (signal) => openSandboxChain(options, { signal, warn }),
        catch: (error) => new SandboxStartError({ message: error instanceof Error ? error.message : String(error) })
      }),
      (opened) => Effect.promise(() => opened.close())
    )
    return { rpcUrl: opened.handle.rpcUrl, wsUrl: opened.handle.wsUrl, handle: opened.handle, resumed: opened.resumed }
  })
