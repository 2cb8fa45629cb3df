// Compute-unit limit without simulation: a per-instruction estimate with a margin. The figures are
// deliberately above the costs seen on chain (the captured devnet request_deposit used ~45k with
// its compute budget instruction) because running out of units fails the whole transaction, while
// an unused limit costs only priority fee on the units requested.
import type { Instruction } from "@solana/kit"
import { INSTRUCTION_DISCRIMINATORS, type InstructionName } from "../../ntbundle/instructions.ts"
import {
  ASSOCIATED_TOKEN_PROGRAM_ID,
  COMPUTE_BUDGET_PROGRAM_ID,
  MEMO_PROGRAM_ID,
  isMainLayoutNtbundleProgram
} from "../../ntbundle/programs.ts"

const MAX_COMPUTE_UNIT_LIMIT = 1_400_000
const MARGIN_PERCENT = 25
const ROUND_TO = 1_000

const NTBUNDLE_UNITS: Partial<Record<InstructionName, number>> = {
  initialize_bundle_depositor: 25_000,
  set_user_referrer: 20_000,
  request_deposit: 60_000,
  request_withdrawal: 50_000
}
const UNKNOWN_NTBUNDLE_UNITS = 100_000

const knownUnits: ReadonlyArray<readonly [Uint8Array, number]> = Object.entries(NTBUNDLE_UNITS).map(
  ([name, units]) => [INSTRUCTION_DISCRIMINATORS[name as InstructionName], units] as const
)

const startsWith = (data: ArrayLike<number>, prefix: Uint8Array): boolean => {
  if (data.length < prefix.length) return false
  for (let index = 0; index < prefix.length; index++) if (data[index] !== prefix[index]) return false
  return true
}

/** Compared in place: a handful of discriminators, no hex key per instruction. */
const ntbundleUnits = (data: ArrayLike<number>): number => {
  for (const [discriminator, units] of knownUnits) if (startsWith(data, discriminator)) return units
  return UNKNOWN_NTBUNDLE_UNITS
}

const instructionUnits = (instruction: Instruction): number => {
  const data = instruction.data ?? new Uint8Array(0)
  const program = instruction.programAddress
  if (program === COMPUTE_BUDGET_PROGRAM_ID) return 150
  // creating the account (rent transfer, allocate, initialise) is the expensive case
  if (program === ASSOCIATED_TOKEN_PROGRAM_ID) return 30_000
  // the memo program logs its text: cost grows with the length
  if (program === MEMO_PROGRAM_ID) return 6_000 + 100 * data.length
  if (isMainLayoutNtbundleProgram(program)) {
    return ntbundleUnits(data)
  }
  return 200_000
}

/** The limit to request for these instructions (compute budget ones included), rounded up. */
export const estimateComputeUnitLimit = (instructions: ReadonlyArray<Instruction>): number => {
  let units = 0
  for (const instruction of instructions) units += instructionUnits(instruction)
  const withMargin = Math.ceil((units * (100 + MARGIN_PERCENT)) / 100 / ROUND_TO) * ROUND_TO
  return Math.min(withMargin, MAX_COMPUTE_UNIT_LIMIT)
}
