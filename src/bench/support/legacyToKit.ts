import type { AccountRole, Address, Instruction } from "@solana/kit"
import type { LegacyWireInstruction } from "../../tx/legacyInstruction.ts"

/** A legacy wire instruction back as a kit instruction (to recompile `instructions[]` with kit). */
export const fromLegacy = (instruction: LegacyWireInstruction): Instruction => ({
  programAddress: instruction.programId as Address,
  accounts: instruction.accounts.map((account) => ({
    address: account.pubkey as Address,
    role: ((account.isSigner ? 2 : 0) | (account.isWritable ? 1 : 0)) as AccountRole
  })),
  data: new Uint8Array(Buffer.from(instruction.dataBase64, "base64"))
})
