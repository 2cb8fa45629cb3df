import { Context, Data, type Effect, type Option, type Redacted, type Stream } from "effect"
import type { Cluster } from "../src/config.ts"
import type { KeyScope } from "../src/domain/partnerKeys/scopes.ts"

/** A stored partner key: everything but the key itself (only its hash is kept). */
export interface PartnerKeyRecord {
  readonly id: string
  readonly name: string
  readonly ownerWallet: string | null
  readonly environment: Cluster
  /** For display: `vg_sandbox_` and the key's last four characters. */
  readonly prefix: string
  readonly last4: string
  /** Null = the server's default quota. */
  readonly quotaLimit: number | null
  readonly quotaWindowSeconds: number | null
  readonly createdAt: Date
  readonly revokedAt: Date | null
  /** Set on the old key by a rotation: valid until then. */
  readonly expiresAt: Date | null
  /** What the key may do; undefined = every scope (keys from the CLI or the sandbox seed). */
  readonly scopes?: ReadonlyArray<KeyScope>
  /** The organization the key belongs to (its owner wallet is `ownerWallet`); null for CLI keys. */
  readonly organizationId?: string | null
}

export interface IssueKey {
  readonly name: string
  readonly ownerWallet: string | null
  readonly environment: Cluster
  readonly quotaLimit?: number | null
  readonly quotaWindowSeconds?: number | null
}

/** A key just created: the plaintext exists only here; show it once. */
export interface IssuedKey {
  readonly record: PartnerKeyRecord
  readonly key: Redacted.Redacted<string>
}

export class PartnerKeyNotFound extends Data.TaggedError("PartnerKeyNotFound")<{ readonly id: string }> {
  override get message() {
    return `no active partner key with id ${this.id}`
  }
}

export class PartnerKeyStoreError extends Data.TaggedError("PartnerKeyStoreError")<{
  readonly message: string
  readonly cause: unknown
}> {}

export type Invalidation = { readonly _tag: "Listening" } | { readonly _tag: "Changed"; readonly hash: string }

/** How long a rotated key stays valid (spec §3, §8). */
export const ROTATION_GRACE_SECONDS = 60

/**
 * The partner key store. Revoke and rotate announce the hashes they changed on `invalidations` on
 * every instance, so caches drop the affected records at once.
 */
export class PartnerKeys extends Context.Tag("PartnerKeys")<
  PartnerKeys,
  {
    readonly issue: (input: IssueKey) => Effect.Effect<IssuedKey, PartnerKeyStoreError>
    /** Stores a given key (the sandbox key); one stored already is returned as it is: a revoked key stays revoked. */
    readonly ensure: (input: IssueKey, key: Redacted.Redacted<string>) => Effect.Effect<PartnerKeyRecord, PartnerKeyStoreError>
    readonly list: Effect.Effect<ReadonlyArray<PartnerKeyRecord>, PartnerKeyStoreError>
    readonly revoke: (id: string) => Effect.Effect<PartnerKeyRecord, PartnerKeyNotFound | PartnerKeyStoreError>
    /** A replacement with the same name, owner, environment and quota; the old key expires in 60 s. */
    readonly rotate: (id: string) => Effect.Effect<IssuedKey & { readonly previous: PartnerKeyRecord }, PartnerKeyNotFound | PartnerKeyStoreError>
    readonly findByHash: (hash: string) => Effect.Effect<Option.Option<PartnerKeyRecord>, PartnerKeyStoreError>
    /**
     * Changes from any instance: first `Listening` once no later change can be missed (and again
     * after any reconnection), then the hash of each key whose record changed.
     */
    readonly invalidations: Stream.Stream<Invalidation, PartnerKeyStoreError>
  }
>() {}
