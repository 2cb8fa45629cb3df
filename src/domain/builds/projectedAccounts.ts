// The accounts a build reads from the projection, decoded. Positions are decoded on demand and
// memoised per raw buffer: the projection replaces the buffer when the account changes.
import type { Address } from "@solana/kit"
import { Either } from "effect"
import { decodeUserBundleAccount, type ReferrerAccount, type UserBundleAccount } from "../../ntbundle/accounts.ts"
import type { VaultRef } from "../../ntbundle/builders/common.ts"
import { findReferrerPda, findUserBundlePda } from "../../ntbundle/pdas.ts"
import type { ProjectionState, VaultView } from "../projection/state.ts"

const decodedPositions = new WeakMap<Uint8Array, UserBundleAccount | null>()

/** `owner`'s UserBundleAccount in `vault`; null when it does not exist (or cannot be decoded). */
export const readPosition = (
  state: ProjectionState,
  program: Address,
  owner: Address,
  vault: Address
): UserBundleAccount | null => {
  const [address] = findUserBundlePda(program, owner, vault)
  const raw = state.accounts.get(address)
  if (raw === undefined || raw.kind !== "UserBundleAccount") return null
  const cached = decodedPositions.get(raw.data)
  if (cached !== undefined) return cached
  const decoded = Either.getOrNull(decodeUserBundleAccount(raw.data))
  decodedPositions.set(raw.data, decoded)
  return decoded
}

/** The builder's registration in `vault`; null when not registered. */
export const readReferrerAccount = (
  state: ProjectionState,
  program: Address,
  vault: Address,
  referrer: Address
): ReferrerAccount | null => state.referrers.get(findReferrerPda(program, vault, referrer)[0])?.account ?? null

export const vaultRef = (program: Address, view: VaultView): VaultRef => ({
  program,
  bundleAddress: view.address as Address,
  bundle: view.bundle
})
