import type { Address } from "@solana/kit"
import { Effect, Layer } from "effect"
import { BuilderCodes } from "../../services/BuilderCodes.ts"
import { ChainSource } from "../../services/ChainSource.ts"
import { BuilderCodesLive } from "./BuilderCodesLive.ts"

interface SandboxWallet {
  readonly address: string
  readonly role: string
}

/** `BUILDER-1`, `BUILDER-2`, ...: one code per scenario builder, in the order the sandbox lists them. */
export const sandboxBuilderCode = (index: number) => `BUILDER-${index + 1}`

/**
 * For `serve` on the in-process sandbox: gives each scenario builder a code, so dapps and tests can
 * attribute deposits by code at once. Asks the sandbox itself (`sandbox_wallets`); a failure only
 * logs, the gateway serves without the codes.
 */
export const SandboxCodesSeed = Layer.effectDiscard(
  Effect.gen(function*() {
    const source = yield* ChainSource
    const codes = yield* BuilderCodes
    const wallets = yield* Effect.tryPromise(async () => {
      const response = await fetch(source.rpcUrl, {
        method: "POST",
        headers: { "content-type": "application/json" },
        body: JSON.stringify({ jsonrpc: "2.0", id: 1, method: "sandbox_wallets", params: [] })
      })
      return ((await response.json()) as { result: ReadonlyArray<SandboxWallet> }).result
    })
    const builders = wallets.filter((wallet) => wallet.role === "builder")
    yield* Effect.forEach(builders, (builder, index) => codes.set(sandboxBuilderCode(index), builder.address as Address), { discard: true })
    yield* Effect.logInfo(`sandbox builder codes: ${builders.map((b, i) => `${sandboxBuilderCode(i)} -> ${b.address}`).join(", ")}`)
  }).pipe(Effect.catchAll((error) => Effect.logWarning(`seeding the sandbox builder codes failed: ${String(error)}`)))
).pipe(Layer.provide(BuilderCodesLive))
