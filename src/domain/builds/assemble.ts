import type { Address, Instruction } from "@solana/kit"
import { setComputeUnitLimitIx, setComputeUnitPriceIx } from "../../ntbundle/ix/computeBudget.ts"
import { compileUnsignedV0 } from "../../tx/compileV0.ts"
import { toLegacyWireInstruction } from "../../tx/legacyInstruction.ts"
import type { LatestBlockhash } from "./blockhash.ts"
import { estimateComputeUnitLimit } from "./computeUnits.ts"
import type { BuiltTransaction } from "./responses.ts"

/** Solana's packet limit for a whole wire transaction. */
export const MAX_TRANSACTION_BYTES = 1232

export interface AssembleInput {
  /** Fee payer and only signer. */
  readonly user: Address
  readonly blockhash: LatestBlockhash
  readonly priorityFeeMicroLamports: bigint
  /** The instructions after the compute budget ones, in order. */
  readonly instructions: ReadonlyArray<Instruction>
}

/**
 * Prepends the compute budget (a limit always, a price when above zero) and compiles the unsigned
 * v0 transaction. The user must be the only signer and the transaction must fit a packet: anything
 * else is a bug in the instruction builders, so it throws.
 */
export const assembleTransaction = (input: AssembleInput): BuiltTransaction => {
  const price = input.priorityFeeMicroLamports
  const priceInstructions = price > 0n ? [setComputeUnitPriceIx(price)] : []
  // the limit instruction's own cost is part of the estimate: estimate with a placeholder of the same kind
  const computeUnitLimit = estimateComputeUnitLimit([setComputeUnitLimitIx(0), ...priceInstructions, ...input.instructions])
  const instructions = [setComputeUnitLimitIx(computeUnitLimit), ...priceInstructions, ...input.instructions]
  const compiled = compileUnsignedV0({ feePayer: input.user, blockhash: input.blockhash.blockhash, instructions })
  if (compiled.header.numSignerAccounts !== 1) {
    throw new Error(`a build needs exactly the user's signature, these instructions need ${compiled.header.numSignerAccounts}`)
  }
  if (compiled.wireBytes.length > MAX_TRANSACTION_BYTES) {
    throw new Error(`the transaction has ${compiled.wireBytes.length} bytes, over the ${MAX_TRANSACTION_BYTES}-byte limit`)
  }
  const wire = compiled.wireBytes
  return {
    transactionBase64: Buffer.from(wire.buffer, wire.byteOffset, wire.byteLength).toString("base64"),
    instructions: instructions.map(toLegacyWireInstruction),
    blockhash: input.blockhash.blockhash,
    lastValidBlockHeight: input.blockhash.lastValidBlockHeight,
    signers: [input.user],
    computeUnitLimit,
    priorityFeeMicroLamports: price.toString(),
    simulation: "skipped"
  }
}
