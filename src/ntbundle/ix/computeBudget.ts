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
  // bytes written one by one: a DataView would make V8 give the small array its own ArrayBuffer
  const data = Uint8Array.of(COMPUTE_BUDGET_SET_UNIT_LIMIT, units & 0xff, (units >>> 8) & 0xff, (units >>> 16) & 0xff, units >>> 24)
  return instruction(COMPUTE_BUDGET_PROGRAM_ID, [], data)
}

/** SetComputeUnitPrice: `[0x03, micro-lamports per CU u64 LE]`. Throws on a value outside u64. */
export const setComputeUnitPriceIx = (microLamports: bigint): BuiltInstruction => {
  if (microLamports < 0n || microLamports > U64_MAX) throw new RangeError(`compute unit price ${microLamports} is not a u64`)
  const data = new Uint8Array(9)
  data[0] = COMPUTE_BUDGET_SET_UNIT_PRICE
  const low = Number(microLamports & 0xffff_ffffn)
  const high = Number(microLamports >> 32n)
  for (let index = 0; index < 4; index++) {
    data[1 + index] = (low >>> (8 * index)) & 0xff
    data[5 + index] = (high >>> (8 * index)) & 0xff
  }
  return instruction(COMPUTE_BUDGET_PROGRAM_ID, [], data)
}
