import { COMPUTE_BUDGET_PROGRAM_ID } from "../programs.ts"
import { instruction, type BuiltInstruction } from "./meta.ts"

// Compute Budget program instructions: a one-byte tag then little-endian arguments, no accounts.
export const COMPUTE_BUDGET_SET_UNIT_LIMIT = 2
export const COMPUTE_BUDGET_SET_UNIT_PRICE = 3

const U32_MAX = 0xffff_ffff
const U64_MAX = 2n ** 64n - 1n

/** SetComputeUnitLimit: `[0x02, units u32 LE]`. Throws on a value outside u32 (a programming error). */
export const setComputeUnitLimitIx = (units: number): BuiltInstruction => {
  if (!Number.isInteger(units) || units < 0 || units > U32_MAX) throw new RangeError(`compute unit limit ${units} is not a u32`)
  const data = new Uint8Array(5)
  data[0] = COMPUTE_BUDGET_SET_UNIT_LIMIT
  new DataView(data.buffer).setUint32(1, units, true)
  return instruction(COMPUTE_BUDGET_PROGRAM_ID, [], data)
}

/** SetComputeUnitPrice: `[0x03, micro-lamports per CU u64 LE]`. Throws on a value outside u64. */
export const setComputeUnitPriceIx = (microLamports: bigint): BuiltInstruction => {
  if (microLamports < 0n || microLamports > U64_MAX) throw new RangeError(`compute unit price ${microLamports} is not a u64`)
  const data = new Uint8Array(9)
  data[0] = COMPUTE_BUDGET_SET_UNIT_PRICE
  new DataView(data.buffer).setBigUint64(1, microLamports, true)
  return instruction(COMPUTE_BUDGET_PROGRAM_ID, [], data)
}
