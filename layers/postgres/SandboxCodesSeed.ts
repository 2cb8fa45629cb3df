import type { Address } from "@solana/kit"
import { Effect, Layer } from "effect"
import { BuilderCodes } from "../../services/BuilderCodes.ts"
import { SolanaRpc } from "../../services/SolanaRpc.ts"
import { BuilderCodesLive } from "./BuilderCodesLive.ts"

/** `BUILDER-1`, `BUILDER-2`, ...: one code per scenario builder, in the order the sandbox lists them. */
export const sandboxBuilderCode = (index: number) => `BUILDER-${index + 1}`

/**
 * For `serve` on the in-process sandbox: gives each scenario builder a code, so dapps and tests can
 * attribute deposits by code at once. Asks the sandbox itself (`sandbox_wallets`), so it is built
 * once the chain is up; a failure only logs, the gateway serves without the codes.
 */
export const SandboxCodesSeed = Layer.effectDiscard(
  Effect.gen(function*() {
    const rpc = yield* SolanaRpc
    const codes = yield* BuilderCodes
    const wallets = yield* rpc.call("sandbox_wallets", [])
    const builders = wallets.filter((wallet) => wallet.role === "builder")
    yield* Effect.forEach(builders, (builder, index) => codes.set(sandboxBuilderCode(index), builder.address as Address), { discard: true })
    yield* Effect.logInfo(`sandbox builder codes: ${builders.map((b, i) => `${sandboxBuilderCode(i)} -> ${b.address}`).join(", ")}`)
  }).pipe(Effect.catchAll((error) => Effect.logWarning(`seeding the sandbox builder codes failed: ${String(error)}`)))
).pipe(Layer.provide(BuilderCodesLive))
