import { Either } from "effect"
import type { ProgramDataLine, ProgramEvents } from "../../services/ChainSource.ts"
import { addressTextOf } from "../../src/ntbundle/addressBytes.ts"
import { decodeEvent, programDataFromLogs } from "../../src/ntbundle/events.ts"
import { type LoadedAddresses, positionOwnersByInstruction } from "./positionOwners.ts"
import { readMessageInstructions } from "./wireMessage.ts"

/** What ingestion reads of a `getTransaction` answer in `base64` encoding. */
export interface TransactionAnswer {
  readonly slot: number
  readonly blockTime: number | null
  readonly meta: {
    readonly err: unknown
    readonly logMessages?: ReadonlyArray<string> | null
    readonly loadedAddresses?: LoadedAddresses | null
  } | null
  readonly transaction: readonly [string, string]
}

export class MalformedTransaction extends Error {
  constructor(signature: string, reason: string) {
    super(`getTransaction ${signature}: ${reason}`)
    this.name = "MalformedTransaction"
  }
}

interface MessageHeader {
  readonly numRequiredSignatures: number
  readonly numReadonlySignedAccounts: number
  readonly numReadonlyUnsignedAccounts: number
}

/** Whether the key at `index` of a message with `keyCount` static keys is writable, by Solana's ordering rules. */
export const isWritableIndex = (index: number, keyCount: number, header: MessageHeader): boolean => {
  const signedWritable = header.numRequiredSignatures - header.numReadonlySignedAccounts
  const unsignedWritableEnd = keyCount - header.numReadonlyUnsignedAccounts
  return index < signedWritable || (index >= header.numRequiredSignatures && index < unsignedWritableEnd)
}

/**
 * The program's data lines with their exact bytes, each decoded when it is an ntbundle event.
 * `ownersByInstruction` (from `positionOwnersByInstruction`) gives each line logged under a
 * top-level `process_deposit` / `process_withdrawal` the position owner as its `user`.
 */
export const programDataLines = (
  logs: ReadonlyArray<string>,
  programId: string,
  ownersByInstruction: ReadonlyArray<string | null> = []
): Array<ProgramDataLine> =>
  programDataFromLogs(logs, programId).map(({ bytes, index, topLevel }) => {
    const decoded = decodeEvent(bytes)
    const line = { index, raw: bytes, event: Either.isRight(decoded) ? decoded.right : null }
    const user = ownersByInstruction[topLevel] ?? null
    return user === null ? line : { ...line, user }
  })

const isAnswer = (value: unknown): value is TransactionAnswer => {
  if (typeof value !== "object" || value === null) return false
  const answer = value as Record<string, unknown>
  const transaction = answer["transaction"]
  return (
    typeof answer["slot"] === "number" &&
    (answer["blockTime"] === null || typeof answer["blockTime"] === "number") &&
    (answer["meta"] === null || typeof answer["meta"] === "object") &&
    Array.isArray(transaction) &&
    typeof transaction[0] === "string" &&
    transaction[1] === "base64"
  )
}

/**
 * One program transaction from its `getTransaction` answer (`base64` encoding): its events (none
 * when it failed: they did not happen) and the accounts it could write. Null stays null (not served).
 */
export const programEventsFromAnswer = (value: unknown, programId: string, signature: string): ProgramEvents | null => {
  if (value === null) return null
  if (!isAnswer(value)) throw new MalformedTransaction(signature, "not a base64-encoded transaction answer")
  const keys = readMessageInstructions(Buffer.from(value.transaction[0], "base64"))
  if (keys === null) throw new MalformedTransaction(signature, "the transaction bytes are not a message")
  const writableAccounts: Array<string> = []
  for (let index = 0; index < keys.accountKeys.length; index++) {
    // memoized: the same accounts recur across transactions
    if (isWritableIndex(index, keys.accountKeys.length, keys.header)) writableAccounts.push(addressTextOf(keys.accountKeys[index]!))
  }
  writableAccounts.push(...(value.meta?.loadedAddresses?.writable ?? []))
  const failed = value.meta?.err != null
  return {
    _tag: "ProgramEvents",
    signature,
    slot: value.slot,
    blockTime: value.blockTime,
    failed,
    events: failed
      ? []
      : programDataLines(
        value.meta?.logMessages ?? [],
        programId,
        positionOwnersByInstruction(keys.accountKeys, keys.instructions, value.meta?.loadedAddresses, programId)
      ),
    writableAccounts
  }
}
