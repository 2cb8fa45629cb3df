import type { Address } from "@solana/kit"
import { encodeReferrerAccount, type ReferrerAccount } from "../../ntbundle/accounts.ts"
import { blankReferralTier, blankReferrerAccount } from "../../ntbundle/blankAccounts.ts"
import { findReferrerPda } from "../../ntbundle/pdas.ts"
import { NTBUNDLE_PROGRAM_ID } from "../../ntbundle/programs.ts"
import type { ProjectionState } from "../../domain/projection/state.ts"

/** A tier schedule of the Bundle account: the given tiers, padded to the program's five slots. */
export const tierSchedule = (tiers: ReadonlyArray<{ threshold: bigint; mfeeBps: number; pfeeBps: number }>) => ({
  referralTiers: [...tiers, ...Array.from({ length: 5 - tiers.length }, blankReferralTier)],
  tierCount: tiers.length
})

let slot = 10_000

/** Writes (or rewrites) the builder's ReferrerAccount in the vault, through `apply` like ingestion. */
export const putReferrer = (
  state: ProjectionState,
  vault: Address,
  builder: Address,
  fields: Partial<ReferrerAccount> = {}
): ReferrerAccount => {
  const account = blankReferrerAccount(vault, builder, fields)
  const [address] = findReferrerPda(NTBUNDLE_PROGRAM_ID, vault, builder)
  state.apply({ address, owner: NTBUNDLE_PROGRAM_ID, slot: slot++, data: encodeReferrerAccount(account) })
  return account
}

export const referrerAddress = (vault: Address, builder: Address): Address => findReferrerPda(NTBUNDLE_PROGRAM_ID, vault, builder)[0]
