import type { Address } from "@solana/kit"
import { findUserBundlePda } from "../../ntbundle/pdas.ts"

/**
 * UserBundleAccount addresses known to be PDA(owner, vault): each costs two curve tests to derive,
 * and `src/ntbundle/pdas` memoises only the most recent 100k, which a million bulk positions
 * would churn through on every keeper run. A position is keyed by its address (the string the
 * ledger already holds) with its vault; its owner is the one stored in the account, which is
 * written once when the account is created, so (address, vault, stored owner) identifies the PDA.
 */
const vaultOfPosition = new Map<string, Map<string, string>>()

const positionsOf = (program: string): Map<string, string> => {
  let positions = vaultOfPosition.get(program)
  if (positions === undefined) {
    positions = new Map()
    vaultOfPosition.set(program, positions)
  }
  return positions
}

/** Records a position whose address was derived from (owner, vault) (bulk genesis derives its own). */
export const rememberPosition = (program: string, position: string, vault: string): void => {
  positionsOf(program).set(position, vault)
}

/**
 * Whether `position` is the UserBundleAccount PDA of (`owner`, `vault`). `storedOwner` is the
 * owner written in the account at `position` (undefined when it does not exist yet).
 */
export const isUserBundlePda = (program: string, position: string, owner: string, vault: string, storedOwner: string | undefined): boolean => {
  if (storedOwner === owner && positionsOf(program).get(position) === vault) return true
  if (findUserBundlePda(program as Address, owner as Address, vault as Address)[0] !== position) return false
  rememberPosition(program, position, vault)
  return true
}
