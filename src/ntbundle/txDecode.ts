// Offline view of a wire transaction (legacy or v0) for `inspect tx`: header-derived account flags
// and the instructions of the programs our builders use, decoded. Never throws on bad input.
import {
  fixDecoderSize,
  getArrayDecoder,
  getBase58Decoder,
  getBytesDecoder,
  getCompiledTransactionMessageDecoder,
  getCompiledTransactionMessageEncoder,
  getShortU16Decoder,
  getTransactionDecoder,
  type Address
} from "@solana/kit"
import { Data, Either } from "effect"
import { bytesEqual as sameBytes, fromBase64, toHex } from "./bytes.ts"
import { decodeInstructionData } from "./instructions.ts"
import {
  ASSOCIATED_TOKEN_PROGRAM_ID,
  COMPUTE_BUDGET_PROGRAM_ID,
  MEMO_PROGRAM_ID,
  isMainLayoutNtbundleProgram
} from "./programs.ts"

export type TxDecodeErrorReason =
  | "INVALID_BASE64"
  | "EMPTY"
  | "MALFORMED"
  | "TRAILING_BYTES"
  | "UNSUPPORTED_VERSION"

export class TxDecodeError extends Data.TaggedError("TxDecodeError")<{
  readonly reason: TxDecodeErrorReason
  readonly message: string
}> {}

export interface DecodedAccount {
  /** Null for an account loaded from an address lookup table (not resolvable offline). */
  readonly address: Address | null
  readonly isSigner: boolean
  readonly isWritable: boolean
  /** Where a lookup-table account comes from. */
  readonly lookup?: { readonly table: Address; readonly index: number }
}

export interface DecodedInstructionView {
  readonly programId: Address
  readonly accounts: ReadonlyArray<DecodedAccount>
  readonly dataHex: string
  /** Name and arguments for ntbundle, Compute Budget, Associated Token and Memo instructions. */
  readonly decoded: { readonly name: string; readonly args: object } | null
}

export interface DecodedTransaction {
  readonly version: "legacy" | 0
  readonly feePayer: Address
  /** The recent blockhash (or durable nonce value). */
  readonly blockhash: string
  readonly header: {
    readonly numSignerAccounts: number
    readonly numReadonlySignerAccounts: number
    readonly numReadonlyNonSignerAccounts: number
  }
  readonly staticAccounts: ReadonlyArray<Address>
  /** One per required signer, in order: base58, or null when the slot is still zero-filled. */
  readonly signatures: ReadonlyArray<string | null>
  readonly addressTableLookups: ReadonlyArray<{
    readonly table: Address
    readonly writableIndexes: ReadonlyArray<number>
    readonly readonlyIndexes: ReadonlyArray<number>
  }>
  readonly instructions: ReadonlyArray<DecodedInstructionView>
}

const fail = (reason: TxDecodeErrorReason, message: string): Either.Either<never, TxDecodeError> =>
  Either.left(new TxDecodeError({ reason, message }))

const errorText = (error: unknown): string => (error instanceof Error ? error.message : String(error))

const transactionDecoder = getTransactionDecoder()
const messageDecoder = getCompiledTransactionMessageDecoder()
const messageEncoder = getCompiledTransactionMessageEncoder()
const base58 = getBase58Decoder()
// Read directly so a (malformed) repeated signer key cannot merge two signature slots.
const signaturesDecoder = getArrayDecoder(fixDecoderSize(getBytesDecoder(), 64), { size: getShortU16Decoder() })

// ---------------------------------------------------------------------------------------------
// Known programs

const decodeComputeBudget = (data: Uint8Array): DecodedInstructionView["decoded"] => {
  const view = new DataView(data.buffer, data.byteOffset, data.byteLength)
  const u32Argument = data.length === 5 ? view.getUint32(1, true) : null
  switch (data[0]) {
    case 1:
      return u32Argument === null ? null : { name: "RequestHeapFrame", args: { bytes: u32Argument } }
    case 2:
      return u32Argument === null ? null : { name: "SetComputeUnitLimit", args: { units: u32Argument } }
    case 3:
      return data.length === 9 ? { name: "SetComputeUnitPrice", args: { microLamports: view.getBigUint64(1, true) } } : null
    case 4:
      return u32Argument === null ? null : { name: "SetLoadedAccountsDataSizeLimit", args: { bytes: u32Argument } }
    default:
      return null
  }
}

const decodeAssociatedToken = (data: Uint8Array): DecodedInstructionView["decoded"] => {
  if (data.length === 0 || (data.length === 1 && data[0] === 0)) return { name: "Create", args: {} }
  if (data.length === 1 && data[0] === 1) return { name: "CreateIdempotent", args: {} }
  if (data.length === 1 && data[0] === 2) return { name: "RecoverNested", args: {} }
  return null
}

const utf8 = new TextDecoder("utf-8", { fatal: true })

const decodeMemo = (data: Uint8Array): DecodedInstructionView["decoded"] => {
  try {
    return { name: "Memo", args: { text: utf8.decode(data) } }
  } catch {
    return null
  }
}

const decodeKnownInstruction = (programId: Address, data: Uint8Array): DecodedInstructionView["decoded"] => {
  if (isMainLayoutNtbundleProgram(programId)) {
    return Either.match(decodeInstructionData(data), {
      onLeft: () => null,
      onRight: (ix) => ({ name: ix.name, args: ix.args })
    })
  }
  if (programId === COMPUTE_BUDGET_PROGRAM_ID) return decodeComputeBudget(data)
  if (programId === ASSOCIATED_TOKEN_PROGRAM_ID) return decodeAssociatedToken(data)
  if (programId === MEMO_PROGRAM_ID) return decodeMemo(data)
  return null
}

// ---------------------------------------------------------------------------------------------
// Message structure

type CompiledMessage = ReturnType<typeof messageDecoder.decode>
type LegacyOrV0Message = CompiledMessage & { readonly version: "legacy" | 0 }

/**
 * The account at each index a v0/legacy instruction may use: static keys first (flags from the
 * header), then lookup-table keys, all writable ones of every table before the read-only ones.
 */
const accountTable = (
  message: LegacyOrV0Message
): Either.Either<ReadonlyArray<DecodedAccount>, TxDecodeError> => {
  const { header, staticAccounts } = message
  const count = staticAccounts.length
  if (
    header.numSignerAccounts > count ||
    header.numReadonlySignerAccounts > header.numSignerAccounts ||
    header.numReadonlyNonSignerAccounts > count - header.numSignerAccounts
  ) {
    return fail("MALFORMED", `message header does not fit its ${count} static accounts`)
  }
  const staticView = staticAccounts.map((address, index): DecodedAccount => {
    const isSigner = index < header.numSignerAccounts
    const isWritable = isSigner
      ? index < header.numSignerAccounts - header.numReadonlySignerAccounts
      : index < count - header.numReadonlyNonSignerAccounts
    return { address, isSigner, isWritable }
  })
  const lookups = message.version === 0 ? (message.addressTableLookups ?? []) : []
  const loaded = (writableSide: boolean): ReadonlyArray<DecodedAccount> =>
    lookups.flatMap((lookup) =>
      (writableSide ? lookup.writableIndexes : lookup.readonlyIndexes).map((index) => ({
        address: null,
        isSigner: false,
        isWritable: writableSide,
        lookup: { table: lookup.lookupTableAddress, index }
      }))
    )
  return Either.right([...staticView, ...loaded(true), ...loaded(false)])
}

const instructionViews = (
  message: LegacyOrV0Message,
  accounts: ReadonlyArray<DecodedAccount>,
  staticCount: number
): Either.Either<ReadonlyArray<DecodedInstructionView>, TxDecodeError> => {
  const views: Array<DecodedInstructionView> = []
  for (const [position, compiled] of message.instructions.entries()) {
    // The runtime only invokes programs named by a static key.
    const programId = compiled.programAddressIndex < staticCount ? accounts[compiled.programAddressIndex]?.address : null
    if (programId === undefined || programId === null) {
      return fail("MALFORMED", `instruction ${position}: program index ${compiled.programAddressIndex} is not a static account`)
    }
    const indices = compiled.accountIndices ?? []
    const instructionAccounts: Array<DecodedAccount> = []
    for (const index of indices) {
      const account = accounts[index]
      if (account === undefined) {
        return fail("MALFORMED", `instruction ${position}: account index ${index} is out of range (${accounts.length} accounts)`)
      }
      instructionAccounts.push(account)
    }
    const data = new Uint8Array(compiled.data ?? new Uint8Array())
    views.push({ programId, accounts: instructionAccounts, dataHex: toHex(data), decoded: decodeKnownInstruction(programId, data) })
  }
  return Either.right(views)
}

const reencodesTo = (message: CompiledMessage, bytes: Uint8Array): boolean => {
  try {
    return sameBytes(messageEncoder.encode(message), bytes)
  } catch {
    return false
  }
}

// ---------------------------------------------------------------------------------------------
// Entry points

/** Decodes wire-format transaction bytes (signatures then message). */
export const decodeTransactionBytes = (bytes: Uint8Array): Either.Either<DecodedTransaction, TxDecodeError> => {
  if (bytes.length === 0) return fail("EMPTY", "the transaction has no bytes")
  // Legacy and v0 transactions start with the signature count (< 128 here); a set high bit marks
  // a message-first envelope, i.e. v1 and later.
  const firstByte = bytes[0] ?? 0
  if ((firstByte & 0x80) !== 0) {
    return fail("UNSUPPORTED_VERSION", `transaction version ${firstByte & 0x7f} is not supported (legacy and v0 are)`)
  }
  let messageBytes: Uint8Array
  let signatures: ReadonlyArray<Uint8Array>
  let message: CompiledMessage
  let end: number
  try {
    // kit checks the signature count against the header's signer count
    messageBytes = new Uint8Array(transactionDecoder.decode(bytes).messageBytes)
    signatures = signaturesDecoder.decode(bytes).map((signature) => new Uint8Array(signature))
    ;[message, end] = messageDecoder.read(messageBytes, 0)
  } catch (error) {
    return fail("MALFORMED", `not a Solana transaction: ${errorText(error)}`)
  }
  if (message.version !== "legacy" && message.version !== 0) {
    return fail("UNSUPPORTED_VERSION", `transaction version ${String(message.version)} is not supported (legacy and v0 are)`)
  }
  if (end !== messageBytes.length) {
    return fail("TRAILING_BYTES", `${messageBytes.length - end} bytes follow the message`)
  }
  // kit reads a missing trailing count (instructions, lookups) as 0; the runtime does not, so a
  // message must re-encode to exactly its own bytes.
  if (!reencodesTo(message, messageBytes)) {
    return fail("MALFORMED", "the message is truncated or not canonically encoded")
  }
  const legacyOrV0 = message
  const feePayer = legacyOrV0.staticAccounts[0]
  if (feePayer === undefined || legacyOrV0.header.numSignerAccounts === 0) {
    return fail("MALFORMED", "the message names no fee payer")
  }
  return Either.gen(function* () {
    const accounts = yield* accountTable(legacyOrV0)
    const instructions = yield* instructionViews(legacyOrV0, accounts, legacyOrV0.staticAccounts.length)
    return {
      version: legacyOrV0.version,
      feePayer,
      blockhash: legacyOrV0.lifetimeToken,
      header: legacyOrV0.header,
      staticAccounts: legacyOrV0.staticAccounts,
      signatures: signatures.map((signature) => (signature.every((byte) => byte === 0) ? null : base58.decode(signature))),
      addressTableLookups: (legacyOrV0.version === 0 ? (legacyOrV0.addressTableLookups ?? []) : []).map((lookup) => ({
        table: lookup.lookupTableAddress,
        writableIndexes: lookup.writableIndexes,
        readonlyIndexes: lookup.readonlyIndexes
      })),
      instructions
    }
  })
}

/** Decodes a standard (padded) base64 wire transaction, as RPC nodes and the tx builders return it. */
export const decodeTransactionBase64 = (text: string): Either.Either<DecodedTransaction, TxDecodeError> => {
  const bytes = fromBase64(text.trim())
  return bytes === undefined ? fail("INVALID_BASE64", "the transaction is not standard base64") : decodeTransactionBytes(bytes)
}
