import { getCompiledTransactionMessageDecoder, getCompiledTransactionMessageEncoder, getTransactionDecoder } from "@solana/kit"
import { setComputeUnitLimitIx } from "../../ntbundle/ix/computeBudget.ts"
import { COMPUTE_BUDGET_PROGRAM_ID } from "../../ntbundle/programs.ts"
import type { BuiltTransaction } from "./responses.ts"

/** The most a transaction may request: simulations run at this limit, so an estimate never fails them. */
export const MAX_COMPUTE_UNIT_LIMIT = 1_400_000
/** Head room over what the simulation used: state can move between the build and the landing. */
export const SIMULATION_MARGIN_PERCENT = 15
const ROUND_TO = 1_000
const SIGNATURE_LENGTH = 64

/** The limit to request for a transaction whose simulation consumed `unitsConsumed`. */
export const simulatedComputeUnitLimit = (unitsConsumed: number): number => {
  const withMargin = Math.ceil((unitsConsumed * (100 + SIMULATION_MARGIN_PERCENT)) / 100 / ROUND_TO) * ROUND_TO
  return Math.min(Math.max(withMargin, ROUND_TO), MAX_COMPUTE_UNIT_LIMIT)
}

/**
 * The same build with another compute-unit limit: the SetComputeUnitLimit instruction (always the
 * first, see assemble.ts) gets the new value in the wire transaction and in `instructions[]`.
 * Accounts, order and size are unchanged. Throws when the build does not have that shape (a bug).
 */
export const withComputeUnitLimit = <B extends BuiltTransaction>(built: B, computeUnitLimit: number): B => {
  const wire = new Uint8Array(Buffer.from(built.transactionBase64, "base64"))
  const { messageBytes, signatures } = getTransactionDecoder().decode(wire)
  if (Object.keys(signatures).length !== 1) throw new Error("a build has exactly one signer")
  const message = getCompiledTransactionMessageDecoder().decode(messageBytes)
  if (message.version !== 0) throw new Error("a build is a v0 transaction")
  const first = message.instructions[0]
  const limitData = setComputeUnitLimitIx(computeUnitLimit).data
  if (first === undefined || message.staticAccounts[first.programAddressIndex] !== COMPUTE_BUDGET_PROGRAM_ID || first.data?.[0] !== limitData[0]) {
    throw new Error("the build does not start with SetComputeUnitLimit")
  }
  const relimited = getCompiledTransactionMessageEncoder().encode({
    ...message,
    instructions: [{ ...first, data: limitData }, ...message.instructions.slice(1)]
  })
  const out = new Uint8Array(1 + SIGNATURE_LENGTH + relimited.length)
  out[0] = 1
  out.set(relimited, 1 + SIGNATURE_LENGTH)
  const [limitInstruction, ...rest] = built.instructions
  return {
    ...built,
    transactionBase64: Buffer.from(out).toString("base64"),
    instructions: [{ ...limitInstruction!, dataBase64: Buffer.from(limitData).toString("base64") }, ...rest],
    computeUnitLimit
  }
}
