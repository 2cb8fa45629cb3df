import { Effect, Layer, Option, PubSub, Stream } from "effect"
import {
  type Invalidation,
  type IssueKey,
  type PartnerKeyRecord,
  PartnerKeys
} from "../../../services/PartnerKeys.ts"
import { generateApiKey, hashApiKey, KEY_PREFIXES } from "../../domain/partnerKeys/apiKeyFormat.ts"

export interface InMemoryKeyStore {
  /** Lookups that reached the store (cache misses of the middleware). */
  readonly lookups: () => number
  /** Issues a key and returns it with its record id. */
  readonly issue: (input?: Partial<IssueKey>) => { readonly key: string; readonly id: string }
  /** Revokes a key; `notify: false` as if the NOTIFY were lost on the way to this instance. */
  readonly revoke: (id: string, options?: { readonly notify?: boolean }) => void
}

const notUsed = Effect.die(new Error("not used by the partner key middleware"))

/**
 * The partner key store as the middleware reads it (lookups by hash, invalidations), in memory, for
 * tests and benchmarks that exercise the real `PartnerKeyLive` without Postgres. Invalidations start
 * with `Listening`, like the Postgres store once its LISTEN is up.
 */
export const makePartnerKeysInMemory = Effect.gen(function*() {
  const byHash = new Map<string, PartnerKeyRecord>()
  const changes = yield* PubSub.unbounded<Invalidation>()
  let lookups = 0
  let serial = 0

  const store: InMemoryKeyStore = {
    lookups: () => lookups,
    issue: (input = {}) => {
      const environment = input.environment ?? "sandbox"
      const key = generateApiKey(environment)
      const id = `key-${++serial}`
      byHash.set(hashApiKey(key), {
        id,
        name: input.name ?? id,
        ownerWallet: input.ownerWallet ?? null,
        environment,
        prefix: KEY_PREFIXES[environment],
        last4: key.slice(-4),
        quotaLimit: input.quotaLimit ?? null,
        quotaWindowSeconds: input.quotaWindowSeconds ?? null,
        createdAt: new Date(),
        revokedAt: null,
        expiresAt: null
      })
      return { key, id }
    },
    revoke: (id, options = {}) => {
      for (const [hash, record] of byHash) {
        if (record.id !== id) continue
        byHash.set(hash, { ...record, revokedAt: new Date() })
        if (options.notify !== false) Effect.runSync(PubSub.publish(changes, { _tag: "Changed", hash }))
      }
    }
  }

  const invalidations: Stream.Stream<Invalidation> = Stream.unwrapScoped(
    Effect.map(PubSub.subscribe(changes), (subscription) =>
      Stream.concat(Stream.make({ _tag: "Listening" as const }), Stream.fromQueue(subscription)))
  )

  const service: PartnerKeys["Type"] = {
    issue: () => notUsed,
    ensure: () => notUsed,
    list: notUsed,
    revoke: () => notUsed,
    rotate: () => notUsed,
    findByHash: (hash) =>
      Effect.sync(() => {
        lookups++
        return Option.fromNullable(byHash.get(hash))
      }),
    invalidations
  }
  return { store, layer: Layer.succeed(PartnerKeys, service) }
})
