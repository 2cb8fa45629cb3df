import { Context, type Effect } from "effect"

export interface WalletSessionRecord {
  readonly id: string
  readonly wallet: string
  readonly createdAt: Date
  readonly lastSeenAt: Date
  /** The absolute end of the session. */
  readonly expiresAt: Date
}

export interface SessionLifetimes {
  readonly idleSeconds: number
  readonly maxSeconds: number
}

/**
 * Wallet sessions of the control plane, by the SHA-256 of their token (the token itself is never
 * stored). A session ends on sign-out, after `idleSeconds` without a request, or `maxSeconds` after
 * sign-in, whichever comes first. A store failure is a defect.
 */
export class WalletSessions extends Context.Tag("WalletSessions")<
  WalletSessions,
  {
    readonly create: (tokenHash: string, wallet: string, lifetimes: SessionLifetimes) => Effect.Effect<WalletSessionRecord>
    /** The live session of the hash, its idle clock restarted; null when unknown, ended or expired. */
    readonly touch: (tokenHash: string, lifetimes: SessionLifetimes) => Effect.Effect<WalletSessionRecord | null>
    readonly end: (tokenHash: string) => Effect.Effect<void>
    /** Ends one session of the wallet; false when it has no such live session. */
    readonly endById: (wallet: string, id: string) => Effect.Effect<boolean>
    readonly listOf: (wallet: string, lifetimes: SessionLifetimes) => Effect.Effect<ReadonlyArray<WalletSessionRecord>>
  }
>() {}
