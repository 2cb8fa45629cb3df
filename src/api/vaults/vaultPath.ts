import { isAddress } from "@solana/kit"
import { Either, Schema } from "effect"
import type { AsOf } from "../../domain/chainPosition.ts"
import type { ProjectionState, VaultView } from "../../domain/projection/state.ts"
import { BadRequest, NotFound } from "../errors.ts"

/**
 * The `{vaultAddress}` path segment. Decoded as a string so that a legacy numeric id can get its own
 * 404 (v2 addresses vaults by base58) instead of a generic 400.
 */
export const VaultAddressParam = Schema.String.annotations({
  description: "base58 address of the vault's Bundle account (v1 numeric ids are not accepted)"
})

const LEGACY_ID = /^\d{1,12}$/

/** The vault a path names: 404 for a v1 numeric id or an unknown vault, 400 for anything not base58. */
export const findVault = (state: ProjectionState, vaultAddress: string): Either.Either<VaultView, NotFound | BadRequest> => {
  // A known vault is a valid address: the hot path skips the base58 check.
  const known = state.vaults.get(vaultAddress)
  if (known !== undefined) return Either.right(known)
  if (LEGACY_ID.test(vaultAddress)) {
    return Either.left(
      new NotFound({
        code: "VAULT_NOT_FOUND",
        message: `v2 identifies vaults by their base58 Bundle address, not the legacy numeric id ${vaultAddress}; GET /v2/vaults lists each vault's legacyVaultId and bundleKey`
      })
    )
  }
  if (!isAddress(vaultAddress)) {
    return Either.left(new BadRequest({ code: "INVALID_ADDRESS", message: "vaultAddress: expected a base58 Solana address (32 bytes)" }))
  }
  return Either.left(new NotFound({ code: "VAULT_NOT_FOUND", message: `no vault ${vaultAddress} on the configured program` }))
}

/** The chain position of the state (live states always have one). */
export const stateAsOf = (state: ProjectionState): AsOf => state.asOf ?? { slot: 0, blockTime: null }
