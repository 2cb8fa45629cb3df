import type { Keypair } from "../crypto/keypair.ts"
import { PACKET_DATA_SIZE } from "../runtime/message.ts"
import type { Instruction } from "../runtime/program.ts"
import type { SendOutcome } from "../runtime/processor.ts"
import { shortVecLength } from "../../tx/shortVec.ts"

/**
 * Sends groups of instructions (each group atomic: e.g. an ATA creation and the payout into it)
 * packed into as few transactions as fit in a packet. A transaction that fails is retried group
 * by group, so one bad group does not hold back the others; groups that still fail are reported.
 */
export interface BatchResult {
  readonly landed: number
  readonly failed: number
  readonly transactions: number
  readonly lastError: string | undefined
}

export type Submit = (request: { readonly feePayer: Keypair; readonly instructions: ReadonlyArray<Instruction> }) => SendOutcome

const SIGNATURE_BYTES = 64

/**
 * Wire size of a legacy transaction signed by its fee payer alone, counted from the message
 * layout (header, account keys, blockhash, compiled instructions) without compiling it.
 */
export const wireSize = (feePayer: string, instructions: ReadonlyArray<Instruction>): number => {
  const keys = new Set([feePayer])
  return messageWireSize(keys.size + keysNotIn(keys, instructions).length, instructions.length, instructionBytesOf(instructions))
}

const messageWireSize = (keyCount: number, instructionCount: number, instructionBytes: number): number =>
  1 + SIGNATURE_BYTES + 3 + shortVecLength(keyCount) + 32 * keyCount + 32 + shortVecLength(instructionCount) + instructionBytes

/** The distinct keys (programs and accounts) of `instructions` that `keys` does not hold yet. */
const keysNotIn = (keys: ReadonlySet<string>, instructions: ReadonlyArray<Instruction>): string[] => {
  const added: string[] = []
  const note = (address: string): void => {
    if (!keys.has(address) && !added.includes(address)) added.push(address)
  }
  for (const instruction of instructions) {
    note(instruction.programId)
    for (const meta of instruction.accounts) note(meta.address)
  }
  return added
}

const instructionBytesOf = (instructions: ReadonlyArray<Instruction>): number => {
  let bytes = 0
  for (const instruction of instructions) {
    bytes += 1 + shortVecLength(instruction.accounts.length) + instruction.accounts.length + shortVecLength(instruction.data.length) + instruction.data.length
  }
  return bytes
}

const describeFailure = (outcome: SendOutcome): string => {
  if (!("result" in outcome) || outcome.result === undefined) return outcome.kind
  const logLine = outcome.result.logs.find((line) => line.includes("Error Code:") || line.includes("Error:"))
  return `${JSON.stringify(outcome.result.err)}${logLine === undefined ? "" : ` ${logLine}`}`
}

const succeeded = (outcome: SendOutcome): boolean => outcome.kind === "landed" && outcome.result.err === null

export const sendBatched = (
  submit: Submit,
  feePayer: Keypair,
  groups: ReadonlyArray<ReadonlyArray<Instruction>>,
  options: { readonly maxGroupsPerTransaction: number }
): BatchResult => {
  let landed = 0
  let failed = 0
  let transactions = 0
  let lastError: string | undefined
  const send = (instructions: ReadonlyArray<Instruction>): SendOutcome => {
    transactions++
    return submit({ feePayer, instructions })
  }
  const flush = (batch: Array<ReadonlyArray<Instruction>>): void => {
    if (batch.length === 0) return
    const outcome = send(batch.flat())
    if (succeeded(outcome)) {
      landed += batch.length
      return
    }
    if (batch.length === 1) {
      failed++
      lastError = describeFailure(outcome)
      return
    }
    for (const group of batch) flush([group])
  }
  // The batch's size is tallied group by group, as `wireSize` counts it (re-counting the whole
  // candidate for every group is quadratic in the batch).
  let batch: Array<ReadonlyArray<Instruction>> = []
  let keys = new Set([feePayer.address])
  let instructionCount = 0
  let instructionBytes = 0
  for (const group of groups) {
    const added = keysNotIn(keys, group)
    const bytes = instructionBytesOf(group)
    const size = messageWireSize(keys.size + added.length, instructionCount + group.length, instructionBytes + bytes)
    if (batch.length > 0 && (batch.length + 1 > options.maxGroupsPerTransaction || size > PACKET_DATA_SIZE)) {
      flush(batch)
      batch = [group]
      keys = new Set([feePayer.address, ...keysNotIn(new Set([feePayer.address]), group)])
      instructionCount = group.length
      instructionBytes = bytes
    } else {
      batch.push(group)
      for (const address of added) keys.add(address)
      instructionCount += group.length
      instructionBytes += bytes
    }
  }
  flush(batch)
  return { landed, failed, transactions, lastError }
}
