import { isSignerRole, isWritableRole, type Instruction as KitInstruction } from "@solana/kit"
import type { Instruction } from "../runtime/program.ts"

/** The sandbox runtime's instruction shape from a kit instruction (what `src/ntbundle` builders return). */
export const fromKitInstruction = (instruction: KitInstruction): Instruction => ({
  programId: instruction.programAddress,
  accounts: (instruction.accounts ?? []).map((meta) => ({ address: meta.address, isSigner: isSignerRole(meta.role), isWritable: isWritableRole(meta.role) })),
  data: new Uint8Array(instruction.data ?? new Uint8Array(0))
})

export const fromKitInstructions = (instructions: ReadonlyArray<KitInstruction>): Array<Instruction> => instructions.map(fromKitInstruction)
