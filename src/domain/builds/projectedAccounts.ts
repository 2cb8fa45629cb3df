// The accounts a build reads from the projection. A position's fields are read in place from its
// raw bytes on each build (cheaper than a memo keyed by the buffer).
import type { Address } from "@solana/kit"
import type { ReferrerAccount } from "../../ntbundle/accounts.ts"
import type { VaultRef } from "../../ntbundle/builders/common.ts"
import { findReferrerPda, findUserBundlePda } from "../../ntbundle/pdas.ts"
import { readPositionFields, type PositionFields } from "../../ntbundle/positionFields.ts"
import type { ProjectionState, VaultView } from "../projection/state.ts"

/** `owner`'s UserBundleAccount in `vault`; null when it does not exist (or cannot be decoded). */
export const readPosition = (state: ProjectionState, program: Address, owner: Address, vault: Address): PositionFields | null => {
  const [address] = findUserBundlePda(program, owner, vault)
  const raw = state.accounts.get(address)
  if (raw === undefined || raw.kind !== "UserBundleAccount") return null
  return readPositionFields(raw.data)
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
