import { Context, Data, Effect, Layer, type Scope } from "effect"
import { startSandbox, type SandboxHandle, type SandboxOptions } from "./sandbox.ts"

/**
 * The sandbox as an Effect service: started in the layer's scope, every socket closed (and the
 * clock stopped) when the scope closes. `serve` uses it when no RPC is configured; tests use it
 * with `port: 0` and `clock: "manual"`.
 */
export class SandboxStartError extends Data.TaggedError("SandboxStartError")<{ readonly message: string }> {}

export class Sandbox extends Context.Tag("vault-gateway/Sandbox")<Sandbox, SandboxHandle>() {}

export const sandboxScoped = (options: SandboxOptions = {}): Effect.Effect<SandboxHandle, SandboxStartError, Scope.Scope> =>
  Effect.acquireRelease(
    Effect.tryPromise({
      try: () => startSandbox(options),
      catch: (error) => new SandboxStartError({ message: error instanceof Error ? error.message : String(error) })
    }),
    (handle) => Effect.promise(() => handle.close())
  )

export const SandboxLive = (options: SandboxOptions = {}): Layer.Layer<Sandbox, SandboxStartError> =>
  Layer.scoped(Sandbox, sandboxScoped(options))
