import type { Address } from "@solana/kit"
import { PgClient } from "@effect/sql-pg"
import { Effect, Either, Layer, Option, Redacted } from "effect"
import { decodeUserBundleAccount } from "../../src/ntbundle/accounts.ts"
import { hashApiKey } from "../../src/domain/partnerKeys/apiKeyFormat.ts"
import { BuilderCodes } from "../../services/BuilderCodes.ts"
import { PartnerKeys } from "../../services/PartnerKeys.ts"
import { SolanaRpc } from "../../services/SolanaRpc.ts"
import { BuilderCodesLive } from "./BuilderCodesLive.ts"
import { PARTNER_KEY_CHANNEL, PartnerKeysLive } from "./PartnerKeysLive.ts"

/** `BUILDER-1`, `BUILDER-2`, ...: one code per scenario builder, in the order the sandbox lists them. */
export const sandboxBuilderCode = (index: number) => `BUILDER-${index + 1}`

export interface SandboxSeedOptions {
  readonly programId: string
  /** The sandbox partner key: it gets the builder with the largest cohort as its owner wallet. */
  readonly partnerKey: Option.Option<Redacted.Redacted<string>>
}

/** Cohort sizes: positions of the program bound to each referrer. */
const cohortSizes = (programId: string) =>
  Effect.gen(function*() {
    const rpc = yield* SolanaRpc
    const { value } = yield* rpc.call("getProgramAccounts", [programId, { encoding: "base64", withContext: true, commitment: "confirmed" }])
    const sizes = new Map<string, number>()
    for (const { account } of value) {
      const position = decodeUserBundleAccount(Buffer.from(account.data[0], "base64"))
      if (Either.isLeft(position)) continue
      const referrer = position.right.referrer
      sizes.set(referrer, (sizes.get(referrer) ?? 0) + 1)
    }
    return sizes
  })

/** Makes the builder with the largest cohort the key's owner wallet, so every partner route answers. */
const ownKey = (key: Redacted.Redacted<string>, builders: ReadonlyArray<string>, programId: string) =>
  Effect.gen(function*() {
    const sizes = yield* cohortSizes(programId)
    const owner = [...builders].sort((a, b) => (sizes.get(b) ?? 0) - (sizes.get(a) ?? 0))[0]
    if (owner === undefined) return
    const keys = yield* PartnerKeys
    yield* keys.ensure({ name: "sandbox", ownerWallet: owner, environment: "sandbox" }, key)
    const sql = yield* PgClient.PgClient
    const hash = hashApiKey(Redacted.value(key))
    yield* sql`UPDATE partner_key SET owner_wallet = ${owner} WHERE key_hash = ${hash}`
    yield* sql`SELECT pg_notify(${PARTNER_KEY_CHANNEL}, ${hash})`
    yield* Effect.logInfo(`sandbox key owner: wallet ${owner} (a builder with ${sizes.get(owner) ?? 0} referred positions)`)
  })

/**
 * For `serve` on the in-process sandbox: gives each scenario builder a code, so dapps and tests can
 * attribute deposits by code at once, and the sandbox partner key an owner wallet. Asks the sandbox
 * itself (`sandbox_wallets`, the program's accounts), so it is built once the chain is up; a failure
 * only logs, the gateway serves without them.
 */
export const SandboxCodesSeed = (options: SandboxSeedOptions) =>
  Layer.effectDiscard(
    Effect.gen(function*() {
      const rpc = yield* SolanaRpc
      const codes = yield* BuilderCodes
      const wallets = yield* rpc.call("sandbox_wallets", [])
      const builders = wallets.filter((wallet) => wallet.role === "builder")
      yield* Effect.forEach(builders, (builder, index) => codes.set(sandboxBuilderCode(index), builder.address as Address), { discard: true })
      yield* Effect.logInfo(`sandbox builder codes: ${builders.map((b, i) => `${sandboxBuilderCode(i)} -> ${b.address}`).join(", ")}`)
      if (Option.isSome(options.partnerKey)) {
        yield* ownKey(options.partnerKey.value, builders.map((b) => b.address), options.programId)
      }
    }).pipe(Effect.catchAll((error) => Effect.logWarning(`seeding the sandbox builder codes and key owner failed: ${String(error)}`)))
  ).pipe(Layer.provide(Layer.merge(BuilderCodesLive, PartnerKeysLive)))
