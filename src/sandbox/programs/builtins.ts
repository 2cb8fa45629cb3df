import type { AccountState } from "../ledger/ledger.ts"
import { BPF_LOADER_ID, NATIVE_LOADER_ID, type ProgramHandler, type ProgramKind } from "../runtime/program.ts"
import { associatedTokenProgram } from "./associatedToken.ts"
import { computeBudgetProgram } from "./computeBudget.ts"
import { memoProgramV1, memoProgramV2 } from "./memo.ts"
import { systemProgram } from "./system.ts"
import { tokenProgram } from "./token.ts"

export const BUILTIN_PROGRAMS: ReadonlyArray<ProgramHandler> = [
  systemProgram,
  computeBudgetProgram,
  tokenProgram,
  associatedTokenProgram,
  memoProgramV2,
  memoProgramV1
]

/** The executable account a program id shows on the ledger (its code is not modelled: empty data). */
export const programAccountState = (kind: ProgramKind, loader?: string): AccountState => ({
  owner: loader ?? (kind === "builtin" ? NATIVE_LOADER_ID : BPF_LOADER_ID),
  lamports: 1_141_440n,
  data: new Uint8Array(0),
  executable: true
})
