import { getCompiledTransactionMessageDecoder, getTransactionDecoder } from "@solana/kit"
import { encodeBase58 } from "../../ntbundle/base58.ts"
import type { TransactionErrorName } from "./errors.ts"
import { readWireMessage, readWireTransaction, type WireMessage } from "./wireDecode.ts"

/**
 * Wire transactions (legacy and v0) decoded (directly in the usual case, `./wireDecode.ts`, else
 * with kit's decoders), then sanitized as a validator does before anything runs. Address lookup tables are not supported: a v0 message that uses one
 * fails with AddressLookupTableNotFound, which is what a node answers for a table it lacks.
 */
export const PACKET_DATA_SIZE = 1232

export interface CompiledInstruction {
  readonly programIndex: number
  readonly accountIndexes: ReadonlyArray<number>
  readonly data: Uint8Array
}

export interface MessageHeader {
  readonly numRequiredSignatures: number
  readonly numReadonlySignedAccounts: number
  readonly numReadonlyUnsignedAccounts: number
}

export interface DecodedMessage {
  readonly version: "legacy" | 0
  readonly header: MessageHeader
  readonly accountKeys: ReadonlyArray<string>
  readonly recentBlockhash: string
  readonly instructions: ReadonlyArray<CompiledInstruction>
  readonly usesLookupTables: boolean
}

export interface DecodedTransaction extends DecodedMessage {
  readonly wireBytes: Uint8Array
  readonly messageBytes: Uint8Array
  /** One per required signer, in account order. */
  readonly signatures: ReadonlyArray<Uint8Array>
  /** The first signature, base58: the transaction's id. */
  readonly signature: string
}

export type DecodeFailure =
  /** Bytes that are not a transaction at all (RPC: invalid params). */
  | { readonly kind: "malformed"; readonly reason: string }
  /** A transaction that breaks a structural rule (RPC: invalid params, "invalid transaction: ..."). */
  | { readonly kind: "sanitize"; readonly error: TransactionErrorName }

const transactionDecoder = getTransactionDecoder()
const messageDecoder = getCompiledTransactionMessageDecoder()

const EMPTY = new Uint8Array(0)

export const isWritableIndex = (message: DecodedMessage, index: number): boolean => {
  const { numRequiredSignatures, numReadonlySignedAccounts, numReadonlyUnsignedAccounts } = message.header
  return index < numRequiredSignatures
    ? index < numRequiredSignatures - numReadonlySignedAccounts
    : index < message.accountKeys.length - numReadonlyUnsignedAccounts
}

export const isSignerIndex = (message: DecodedMessage, index: number): boolean => index < message.header.numRequiredSignatures

const fromWire = (wire: WireMessage): DecodedMessage | DecodeFailure => {
  const message: DecodedMessage = {
    version: wire.version,
    header: {
      numRequiredSignatures: wire.numSignerAccounts,
      numReadonlySignedAccounts: wire.numReadonlySignerAccounts,
      numReadonlyUnsignedAccounts: wire.numReadonlyNonSignerAccounts
    },
    accountKeys: wire.staticAccounts,
    recentBlockhash: wire.lifetimeToken,
    instructions: wire.instructions,
    usesLookupTables: wire.lookups.length > 0
  }
  const loadedFromTables = wire.lookups.reduce((count, lookup) => count + lookup.writable + lookup.readonly, 0)
  const problem = sanitize(message, wire.staticAccounts.length + loadedFromTables)
  return problem === undefined ? message : { kind: "sanitize", error: problem }
}

export const decodeMessage = (messageBytes: Uint8Array): DecodedMessage | DecodeFailure => {
  const wire = readWireMessage(messageBytes)
  return wire === undefined ? decodeMessageWithKit(messageBytes) : fromWire(wire)
}

/** Kit's decoders: the reference, and the path for anything the direct reader leaves alone. */
export const decodeMessageWithKit = (messageBytes: Uint8Array): DecodedMessage | DecodeFailure => {
  let compiled: ReturnType<typeof messageDecoder.decode>
  try {
    compiled = messageDecoder.decode(messageBytes)
  } catch (error) {
    return { kind: "malformed", reason: error instanceof Error ? error.message : String(error) }
  }
  if (compiled.version !== "legacy" && compiled.version !== 0) return { kind: "sanitize", error: "UnsupportedVersion" }
  const header: MessageHeader = {
    numRequiredSignatures: compiled.header.numSignerAccounts,
    numReadonlySignedAccounts: compiled.header.numReadonlySignerAccounts,
    numReadonlyUnsignedAccounts: compiled.header.numReadonlyNonSignerAccounts
  }
  const accountKeys = compiled.staticAccounts.map(String)
  const instructions = compiled.instructions.map((instruction) => ({
    programIndex: instruction.programAddressIndex,
    accountIndexes: instruction.accountIndices ?? [],
    data: instruction.data === undefined ? EMPTY : new Uint8Array(instruction.data)
  }))
  const lookups = "addressTableLookups" in compiled ? (compiled.addressTableLookups ?? []) : []
  const loadedFromTables = lookups.reduce((count, lookup) => count + lookup.writableIndexes.length + lookup.readonlyIndexes.length, 0)
  const message: DecodedMessage = {
    version: compiled.version,
    header,
    accountKeys,
    recentBlockhash: compiled.lifetimeToken,
    instructions,
    usesLookupTables: lookups.length > 0
  }
  const problem = sanitize(message, accountKeys.length + loadedFromTables)
  return problem === undefined ? message : { kind: "sanitize", error: problem }
}

const tooLarge = (wireBytes: Uint8Array): DecodeFailure | undefined =>
  wireBytes.length > PACKET_DATA_SIZE
    ? { kind: "malformed", reason: `transaction too large: ${wireBytes.length} bytes (max: ${PACKET_DATA_SIZE})` }
    : undefined

export const decodeTransaction = (wireBytes: Uint8Array): DecodedTransaction | DecodeFailure => {
  const large = tooLarge(wireBytes)
  if (large !== undefined) return large
  const wire = readWireTransaction(wireBytes)
  if (wire === undefined) return decodeTransactionWithKit(wireBytes)
  const message = fromWire(wire.message)
  if ("kind" in message) return message
  return { ...message, wireBytes, messageBytes: wire.messageBytes, signatures: wire.signatures, signature: encodeBase58(wire.signatures[0]!) }
}

export const decodeTransactionWithKit = (wireBytes: Uint8Array): DecodedTransaction | DecodeFailure => {
  const large = tooLarge(wireBytes)
  if (large !== undefined) return large
  let envelope: ReturnType<typeof transactionDecoder.decode>
  try {
    envelope = transactionDecoder.decode(wireBytes)
  } catch (error) {
    return { kind: "malformed", reason: error instanceof Error ? error.message : String(error) }
  }
  const messageBytes = new Uint8Array(envelope.messageBytes)
  const message = decodeMessageWithKit(messageBytes)
  if ("kind" in message) return message
  const signatures = message.accountKeys.slice(0, message.header.numRequiredSignatures).map((signer) => {
    const bytes = envelope.signatures[signer as keyof typeof envelope.signatures]
    return bytes === null || bytes === undefined ? new Uint8Array(64) : new Uint8Array(bytes)
  })
  return { ...message, wireBytes, messageBytes, signatures, signature: encodeBase58(signatures[0]!) }
}

/** The structural checks of a message without lookup tables; undefined when it passes. */
export const sanitizeMessage = (message: DecodedMessage): TransactionErrorName | undefined => sanitize(message, message.accountKeys.length)

/** `keyCount` counts the static keys and those a v0 message loads from lookup tables. */
const sanitize = (message: DecodedMessage, keyCount: number): TransactionErrorName | undefined => {
  const { numRequiredSignatures, numReadonlySignedAccounts, numReadonlyUnsignedAccounts } = message.header
  const staticCount = message.accountKeys.length
  if (numRequiredSignatures === 0) return "MissingSignatureForFee"
  if (numReadonlySignedAccounts >= numRequiredSignatures) return "SanitizeFailure"
  if (numRequiredSignatures + numReadonlyUnsignedAccounts > staticCount) return "SanitizeFailure"
  for (const instruction of message.instructions) {
    if (instruction.programIndex === 0 || instruction.programIndex >= keyCount) return "SanitizeFailure"
    for (const index of instruction.accountIndexes) if (index >= keyCount) return "SanitizeFailure"
  }
  if (new Set(message.accountKeys).size !== staticCount) return "AccountLoadedTwice"
  return undefined
}
