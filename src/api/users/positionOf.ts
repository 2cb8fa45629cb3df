import { Either } from "effect"
import type { ProjectionState, VaultView } from "../../domain/projection/state.ts"
import { decodeUserBundleAccountFast } from "../../domain/projection/accountDecoders.ts"
import type { UserBundleAccount } from "../../ntbundle/accounts.ts"
import { NotFound } from "../errors.ts"

export interface Position {
  readonly address: string
  readonly vault: string
  readonly account: UserBundleAccount
}

/** Decodes the projection's raw UserBundleAccount (the indexes keep only a few fields). */
export const decodePosition = (state: ProjectionState, address: string, vault: string): Position | null => {
  const raw = state.accounts.get(address)
  if (raw === undefined) return null
  const decoded = decodeUserBundleAccountFast(raw.data)
  return Either.isRight(decoded) ? { address, vault, account: decoded.right } : null
}

/** Every position of a wallet whose vault is known, in the order the index holds them. */
export const positionsOf = (state: ProjectionState, wallet: string): ReadonlyArray<Position> => {
  const positions: Array<Position> = []
  for (const address of state.positionsByOwner.get(wallet)) {
    const vault = state.users.get(address)?.vault
    if (vault === undefined || vault === null) continue
    const position = decodePosition(state, address, vault)
    if (position !== null) positions.push(position)
  }
  return positions
}

/** The wallet's position (UserBundleAccount) in the vault, or 404 `NO_POSITION`. */
export const findPosition = (state: ProjectionState, vault: VaultView, wallet: string): Either.Either<Position, NotFound> => {
  const position = positionsOf(state, wallet).find((candidate) => candidate.vault === vault.address)
  return position === undefined
    ? Either.left(new NotFound({ code: "NO_POSITION", message: `wallet ${wallet} has no position in vault ${vault.address}` }))
    : Either.right(position)
}
