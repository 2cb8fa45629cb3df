import { Either } from "effect"
import { asPlainBytes, toHex } from "./bytes.ts"
import { decodeAt, type DecodeError, decodeError } from "./errors.ts"
import { INSTRUCTION_LAYOUTS, type InstructionArgsByName } from "./generated/instructions.ts"
import type { Layout } from "./generated/types.ts"

export type * from "./generated/instructions.ts"

/** IDL snake_case instruction name, e.g. `"request_deposit"`. */
export type InstructionName = keyof InstructionArgsByName

/** Decoded instruction data: the instruction's snake_case name and its camelCase arguments. */
export type NtInstructionData = {
  readonly [K in InstructionName]: { readonly name: K; readonly args: InstructionArgsByName[K] }
}[InstructionName]

const DISCRIMINATOR_LENGTH = 8

const instructionNames = Object.keys(INSTRUCTION_LAYOUTS) as Array<InstructionName>

export const INSTRUCTION_DISCRIMINATORS: { readonly [K in InstructionName]: Uint8Array } = Object.fromEntries(
  instructionNames.map((name) => [name, INSTRUCTION_LAYOUTS[name].discriminator])
) as { readonly [K in InstructionName]: Uint8Array }

const nameByDiscriminator: ReadonlyMap<string, InstructionName> = new Map(
  instructionNames.map((name) => [toHex(INSTRUCTION_LAYOUTS[name].discriminator), name])
)

// `name` and `args` are correlated in NtInstructionData, which TypeScript cannot follow through an
// indexed access; this is the one place that widens a layout to the union of all arguments.
const layoutOf = (name: InstructionName): Layout<NtInstructionData["args"]> =>
  INSTRUCTION_LAYOUTS[name] as Layout<NtInstructionData["args"]>

/** 8-byte discriminator followed by the Borsh-encoded arguments. Throws on out-of-range values. */
export const encodeInstructionData = (ix: NtInstructionData): Uint8Array => {
  const layout = layoutOf(ix.name)
  const args = layout.codec.encode(ix.args)
  const data = new Uint8Array(DISCRIMINATOR_LENGTH + args.length)
  data.set(layout.discriminator, 0)
  data.set(args, DISCRIMINATOR_LENGTH)
  return data
}

/**
 * Decodes instruction data. Bytes after the arguments are ignored, as the program's Anchor
 * dispatcher ignores them. Never throws.
 */
export const decodeInstructionData = (bytes: Uint8Array): Either.Either<NtInstructionData, DecodeError> => {
  const data = asPlainBytes(bytes)
  if (data.length < DISCRIMINATOR_LENGTH) {
    return Either.left(decodeError("TOO_SHORT", `instruction data has ${data.length} bytes, less than a discriminator`))
  }
  const discriminator = toHex(data.subarray(0, DISCRIMINATOR_LENGTH))
  const name = nameByDiscriminator.get(discriminator)
  if (name === undefined) {
    return Either.left(decodeError("UNKNOWN_DISCRIMINATOR", `no ntbundle instruction has discriminator ${discriminator}`))
  }
  return Either.map(
    decodeAt(name, layoutOf(name).codec, data, DISCRIMINATOR_LENGTH),
    (args) => ({ name, args }) as NtInstructionData
  )
}
