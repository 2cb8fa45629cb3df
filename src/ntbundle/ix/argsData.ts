// Instruction data of the few instructions every build encodes, written directly: the generic
// path (`encodeInstructionData`, kit's struct codec) allocates an ArrayBuffer and DataView per
// number. Same bytes: an 8-byte discriminator, then the Borsh (little-endian) arguments.
import { INSTRUCTION_DISCRIMINATORS, type InstructionName } from "../instructions.ts"

const DISCRIMINATOR_LENGTH = 8
const U64_MAX = 2n ** 64n - 1n
const U128_MAX = 2n ** 128n - 1n

/** `value` (below 2^(32·words)) as little-endian 32-bit words at `at`. */
const writeWords = (out: Uint8Array, at: number, value: bigint, words: number): void => {
  let rest = value
  for (let word = 0; word < words; word++) {
    const low = Number(rest & 0xffff_ffffn)
    rest >>= 32n
    const offset = at + 4 * word
    out[offset] = low & 0xff
    out[offset + 1] = (low >>> 8) & 0xff
    out[offset + 2] = (low >>> 16) & 0xff
    out[offset + 3] = low >>> 24
  }
}

const withDiscriminator = (name: InstructionName, argsLength: number): Uint8Array => {
  const data = new Uint8Array(DISCRIMINATOR_LENGTH + argsLength)
  data.set(INSTRUCTION_DISCRIMINATORS[name], 0)
  return data
}

/** Data of an instruction without arguments: its discriminator. */
export const noArgsData = (name: InstructionName): Uint8Array => withDiscriminator(name, 0)

/** Data of an instruction whose only argument is a u64. Throws RangeError outside u64, like the codec. */
export const u64ArgData = (name: InstructionName, value: bigint): Uint8Array => {
  if (value < 0n || value > U64_MAX) throw new RangeError(`${name}: ${value} is not a u64`)
  const data = withDiscriminator(name, 8)
  writeWords(data, DISCRIMINATOR_LENGTH, value, 2)
  return data
}

/** Data of an instruction whose only argument is a u128. Throws RangeError outside u128, like the codec. */
export const u128ArgData = (name: InstructionName, value: bigint): Uint8Array => {
  if (value < 0n || value > U128_MAX) throw new RangeError(`${name}: ${value} is not a u128`)
  const data = withDiscriminator(name, 16)
  writeWords(data, DISCRIMINATOR_LENGTH, value, 4)
  return data
}
