import { Context, Data, type Effect, type Redacted } from "effect"
import type { Cluster } from "../src/config.ts"
import type { KeyScope } from "../src/domain/partnerKeys/scopes.ts"

export interface Organization {
  readonly id: string
  readonly ownerWallet: string
  readonly createdAt: Date
}

export interface OrganizationKey {
  readonly id: string
  readonly name: string
  readonly environment: Cluster
  readonly prefix: string
  readonly last4: string
  readonly scopes: ReadonlyArray<KeyScope>
  readonly quotaLimit: number | null
  readonly quotaWindowSeconds: number | null
  readonly createdAt: Date
  readonly lastUsedAt: Date | null
  readonly expiresAt: Date | null
  readonly revokedAt: Date | null
}

export interface NewOrganizationKey {
  readonly name: string
  readonly scopes: ReadonlyArray<KeyScope>
  readonly environment: Cluster
}

/** A key just made: the plaintext exists only here. */
export interface IssuedOrganizationKey {
  readonly key: OrganizationKey
  readonly plaintext: Redacted.Redacted<string>
}

export interface OrganizationCode {
  readonly code: string
  readonly enabled: boolean
  readonly referrer: string
  readonly createdAt: Date
  readonly updatedAt: Date
}

export interface AuditEntry {
  readonly id: string
  readonly wallet: string
  readonly action: string
  readonly details: Record<string, unknown>
  readonly createdAt: Date
}

/** Who does something: the wallet of the session. Every change is audited under it. */
export interface Actor {
  readonly organizationId: string
  readonly wallet: string
}

export class OrganizationKeyNotFound extends Data.TaggedError("OrganizationKeyNotFound")<{ readonly id: string }> {}
export class OrganizationCodeNotFound extends Data.TaggedError("OrganizationCodeNotFound")<{ readonly code: string }> {}
export class CodeTaken extends Data.TaggedError("CodeTaken")<{ readonly code: string }> {}
export class OrganizationLimitReached extends Data.TaggedError("OrganizationLimitReached")<{ readonly message: string }> {}
export class WalletOwnsOrganization extends Data.TaggedError("WalletOwnsOrganization")<{ readonly wallet: string }> {}

/**
 * Organizations and what they own (keys, codes), with every change written to the audit log in the
 * same transaction. Key changes are announced like the CLI's, so every instance's key cache drops
 * them at once. A store failure is a defect (500, logged).
 */
export class Organizations extends Context.Tag("Organizations")<
  Organizations,
  {
    /** The wallet's organization, created (and audited) on its first sign-in. */
    readonly ensureOwned: (wallet: string) => Effect.Effect<{ readonly organization: Organization; readonly created: boolean }>
    readonly ofOwner: (wallet: string) => Effect.Effect<Organization | null>
    /**
     * Moves the owner wallet; its codes follow. A new owner that already owns an organization with
     * keys or codes is refused; an empty one (made by its sign-in) is removed.
     */
    readonly transferOwner: (actor: Actor, newOwner: string) => Effect.Effect<Organization, WalletOwnsOrganization>
    readonly keys: (organizationId: string) => Effect.Effect<ReadonlyArray<OrganizationKey>>
    readonly issueKey: (actor: Actor, key: NewOrganizationKey) => Effect.Effect<IssuedOrganizationKey, OrganizationLimitReached>
    /** A new key, and every earlier active key of the organization revoked, in one transaction. */
    readonly generateKey: (
      actor: Actor,
      key: NewOrganizationKey
    ) => Effect.Effect<IssuedOrganizationKey & { readonly revoked: ReadonlyArray<string> }>
    /** A replacement with the same name, scopes and quota; the old key stays valid 60 s. */
    readonly rotateKey: (actor: Actor, id: string) => Effect.Effect<IssuedOrganizationKey & { readonly previous: OrganizationKey }, OrganizationKeyNotFound>
    readonly revokeKey: (actor: Actor, id: string) => Effect.Effect<OrganizationKey, OrganizationKeyNotFound>
    readonly codes: (organizationId: string) => Effect.Effect<ReadonlyArray<OrganizationCode>>
    readonly claimCode: (actor: Actor, code: string) => Effect.Effect<OrganizationCode, CodeTaken | OrganizationLimitReached>
    readonly setCodeEnabled: (actor: Actor, code: string, enabled: boolean) => Effect.Effect<OrganizationCode, OrganizationCodeNotFound>
    /** Newest first; `before` is the id of the last entry of the previous page. */
    readonly audit: (organizationId: string, page: { readonly before: bigint | null; readonly limit: number }) => Effect.Effect<ReadonlyArray<AuditEntry>>
    /** Records a change made outside this store (a sign-in, a sign-out). */
    readonly record: (actor: Actor, action: string, details: Record<string, unknown>) => Effect.Effect<void>
  }
>() {}
