import { Context, type Effect } from "effect"
import type { SignInInput } from "../src/domain/controlPlane/signIn.ts"

export type NoncePurpose = "sign-in" | "owner-transfer"

/** An issued sign-in input, as stored under its nonce. */
export interface StoredNonce {
  readonly nonce: string
  readonly purpose: NoncePurpose
  /** The organization an owner transfer is for; null for a sign-in. */
  readonly organizationId: string | null
  readonly input: SignInInput
  readonly expiresAt: Date
  readonly usedAt: Date | null
}

/**
 * Sign-In With Solana nonces in shared storage, so that a sign-in begun on one instance completes
 * on another. A store failure is a defect (500, logged).
 */
export class SignInNonces extends Context.Tag("SignInNonces")<
  SignInNonces,
  {
    readonly store: (nonce: Omit<StoredNonce, "usedAt">) => Effect.Effect<void>
    readonly find: (nonce: string) => Effect.Effect<StoredNonce | null>
    /** Marks the nonce used; false when it was used, expired or unknown (a replay lost the race). */
    readonly consume: (nonce: string) => Effect.Effect<boolean>
  }
>() {}
