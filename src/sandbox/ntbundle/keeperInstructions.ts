import type { AccountMeta, Address } from "@solana/kit"
import { encodeInstructionData } from "../../ntbundle/instructions.ts"
import { instruction, writable, writableSigner, type BuiltInstruction } from "../../ntbundle/ix/meta.ts"
import { vaultAddresses } from "./support.ts"

/**
 * apply_fees_to_user for a position whose address the keeper already knows: the same accounts
 * as `applyFeesToUserIx` of `src/ntbundle/ix` (a test holds them equal), without re-deriving the
 * position's PDA from its owner, which dominates fee charging across a million positions.
 */
const APPLY_FEES_DATA = encodeInstructionData({ name: "apply_fees_to_user", args: {} })

export const applyFeesToPositionIx = (input: {
  readonly program: Address
  readonly bundle: Address
  readonly assetMint: Address
  readonly keeper: Address
  readonly owner: Address
  readonly position: Address
  readonly remainingAccounts?: ReadonlyArray<AccountMeta>
}): BuiltInstruction => {
  const pdas = vaultAddresses(input.program, input.bundle, input.assetMint)
  return instruction(
    input.program,
    [
      writableSigner(input.keeper),
      writable(input.owner),
      writable(input.position),
      writable(input.bundle),
      writable(pdas.oracleData as Address),
      writable(pdas.assetAuthority as Address),
      ...(input.remainingAccounts ?? [])
    ],
    APPLY_FEES_DATA
  )
}

