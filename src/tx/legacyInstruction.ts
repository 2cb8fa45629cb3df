import type { Instruction } from "@solana/kit"
import { base64Of } from "./smallBase64.ts"

/** An instruction in the legacy (v1 API, web3.js) wire shape that `instructions[]` uses. */
export interface LegacyWireInstruction {
  readonly programId: string
  readonly accounts: ReadonlyArray<LegacyWireAccount>
  readonly dataBase64: string
}

export interface LegacyWireAccount {
  readonly pubkey: string
  readonly isSigner: boolean
  readonly isWritable: boolean
}

const SIGNER_BIT = 2
const WRITABLE_BIT = 1

/**
 * The instruction's own account metas, unmerged: recompiling these with any Solana library gives
 * the same transaction (the compiler merges roles per address).
 */
export const toLegacyWireInstruction = (instruction: Instruction): LegacyWireInstruction => {
  const data = instruction.data ?? new Uint8Array(0)
  return {
    programId: instruction.programAddress,
    accounts: (instruction.accounts ?? []).map((meta) => ({
      pubkey: meta.address,
      isSigner: (meta.role & SIGNER_BIT) !== 0,
      isWritable: (meta.role & WRITABLE_BIT) !== 0
    })),
    dataBase64: base64Of(data)
  }
}
