import { readU32, readU64 } from "../codec/bytes.ts"
import type { ProgramHandler } from "../runtime/program.ts"
import { COMPUTE_BUDGET_PROGRAM_ID } from "./ids.ts"

/**
 * Compute Budget instructions are read before execution (they set the transaction's compute
 * limit and priority fee); executing them does nothing more, as on Solana.
 */
export interface ComputeBudget {
  readonly unitLimit: number
  /** Micro-lamports per compute unit. */
  readonly unitPrice: bigint
}

export type ComputeBudgetProblem =
  | { readonly kind: "invalid"; readonly instructionIndex: number }
  | { readonly kind: "duplicate"; readonly instructionIndex: number }

export const MAX_COMPUTE_UNIT_LIMIT = 1_400_000
const DEFAULT_UNITS_PER_INSTRUCTION = 200_000
const DEFAULT_UNITS_PER_BUILTIN_INSTRUCTION = 3_000

/**
 * Reads SetComputeUnitLimit / SetComputeUnitPrice (RequestHeapFrame and
 * SetLoadedAccountsDataSizeLimit are accepted and ignored). Without a limit, each instruction
 * gets 200k units (3k for builtins), capped at 1.4M, as Agave computes the default.
 */
export const readComputeBudget = (
  instructions: ReadonlyArray<{ readonly programId: string; readonly data: Uint8Array }>,
  isBuiltin: (programId: string) => boolean
): ComputeBudget | ComputeBudgetProblem => {
  let unitLimit: number | undefined
  let unitPrice: bigint | undefined
  const seen = new Set<number>()
  let defaultLimit = 0
  for (let index = 0; index < instructions.length; index++) {
    const { programId, data } = instructions[index]!
    if (programId !== COMPUTE_BUDGET_PROGRAM_ID) {
      defaultLimit += isBuiltin(programId) ? DEFAULT_UNITS_PER_BUILTIN_INSTRUCTION : DEFAULT_UNITS_PER_INSTRUCTION
      continue
    }
    defaultLimit += DEFAULT_UNITS_PER_BUILTIN_INSTRUCTION
    const tag = data[0]
    const expectedLength = tag === 1 || tag === 2 || tag === 4 ? 5 : tag === 3 ? 9 : -1
    if (expectedLength < 0 || data.length !== expectedLength) return { kind: "invalid", instructionIndex: index }
    if (seen.has(tag!)) return { kind: "duplicate", instructionIndex: index }
    seen.add(tag!)
    if (tag === 2) unitLimit = readU32(data, 1)
    if (tag === 3) unitPrice = readU64(data, 1)
  }
  return {
    unitLimit: Math.min(unitLimit ?? defaultLimit, MAX_COMPUTE_UNIT_LIMIT),
    unitPrice: unitPrice ?? 0n
  }
}

/** Priority fee in lamports: price (micro-lamports per unit) times the requested limit, rounded up. */
export const prioritizationFee = (budget: ComputeBudget): bigint =>
  (budget.unitPrice * BigInt(budget.unitLimit) + 999_999n) / 1_000_000n

export const computeBudgetProgram: ProgramHandler = {
  programId: COMPUTE_BUDGET_PROGRAM_ID,
  name: "compute-budget",
  kind: "builtin",
  baseComputeUnits: 150,
  execute: () => undefined
}
