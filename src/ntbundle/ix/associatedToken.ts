import type { Address } from "@solana/kit"
import { findAssociatedTokenAddress } from "../pdas.ts"
import { ASSOCIATED_TOKEN_PROGRAM_ID, SYSTEM_PROGRAM_ID, TOKEN_PROGRAM_ID } from "../programs.ts"
import { instruction, readonly, writable, writableSigner, type BuiltInstruction } from "./meta.ts"

/** Associated Token program instruction tags (an empty data field also means Create). */
export const ATA_CREATE = 0
export const ATA_CREATE_IDEMPOTENT = 1

/**
 * CreateIdempotent for `owner`'s classic-token ATA of `mint`, paid by `payer`: succeeds whether or
 * not the account already exists, so withdrawals can always prepend it.
 */
export const createAssociatedTokenAccountIdempotentIx = (input: {
  readonly payer: Address
  readonly owner: Address
  readonly mint: Address
}): BuiltInstruction => {
  const [associatedTokenAccount] = findAssociatedTokenAddress(input.owner, input.mint)
  return instruction(
    ASSOCIATED_TOKEN_PROGRAM_ID,
    [
      writableSigner(input.payer),
      writable(associatedTokenAccount),
      readonly(input.owner),
      readonly(input.mint),
      readonly(SYSTEM_PROGRAM_ID),
      readonly(TOKEN_PROGRAM_ID)
    ],
    Uint8Array.of(ATA_CREATE_IDEMPOTENT)
  )
}
