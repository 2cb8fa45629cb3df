// Unsigned v0 wire transactions compiled straight from cached address bytes. The account order,
// role merging and limits are kit's (`compileTransactionMessage` for version 0 without lookup
// tables), so the bytes equal kit's `getBase64EncodedWireTransaction(compileTransaction(...))`;
// the parity tests hold that. Kit spends most of its ~1 ms per build in base58; this does none
// for addresses it has seen before.
import type { Instruction } from "@solana/kit"
import { addressBytesOf } from "../ntbundle/addressBytes.ts"
import { decodeBase58Bytes32 } from "../ntbundle/base58.ts"
import { compareKitOrder } from "./staticAddress.ts"
import { shortVecLength, writeShortVec } from "./shortVec.ts"

const WRITABLE_BIT = 1
const SIGNER_BIT = 2
const WRITABLE_SIGNER = WRITABLE_BIT | SIGNER_BIT
const READONLY = 0

const MAX_ACCOUNTS = 64
const MAX_SIGNERS = 12
const MAX_INSTRUCTIONS = 64
const MAX_ACCOUNTS_PER_INSTRUCTION = 255
const MAX_SHORT_U16 = 0xffff
const VERSION_0_PREFIX = 0x80
const SIGNATURE_LENGTH = 64

export type TransactionCompileErrorReason =
  | "INVALID_ADDRESS"
  | "INVALID_BLOCKHASH"
  | "INVOKED_PROGRAM_PAYS_FEES"
  | "INVOKED_PROGRAM_WRITABLE"
  | "LOOKUP_TABLES_UNSUPPORTED"
  | "TOO_MANY_ACCOUNTS"
  | "TOO_MANY_SIGNERS"
  | "TOO_MANY_INSTRUCTIONS"
  | "TOO_MANY_ACCOUNTS_IN_INSTRUCTION"
  | "DATA_TOO_LONG"

/** The instructions cannot form a transaction: a programming error of the caller (kit throws alike). */
export class TransactionCompileError extends Error {
  constructor(
    readonly reason: TransactionCompileErrorReason,
    message: string
  ) {
    super(message)
  }
}

export interface UnsignedV0Input {
  readonly feePayer: string
  /** Base58 recent blockhash: the transaction's lifetime. */
  readonly blockhash: string
  readonly instructions: ReadonlyArray<Instruction>
}

export interface MessageHeader {
  readonly numSignerAccounts: number
  readonly numReadonlySignerAccounts: number
  readonly numReadonlyNonSignerAccounts: number
}

export interface CompiledUnsignedV0 {
  /** Signature count, zero-filled signature slots, then the message: ready for base64. */
  readonly wireBytes: Uint8Array
  /** The message part of `wireBytes` (what a wallet signs). */
  readonly messageBytes: Uint8Array
  readonly header: MessageHeader
  /** Fee payer first, then writable signers, read-only signers, writable and read-only non-signers. */
  readonly staticAccounts: ReadonlyArray<string>
}

interface AccountEntry {
  readonly address: string
  role: number
  readonly isFeePayer: boolean
  /** Shared address bytes: never mutate. */
  readonly bytes: Uint8Array
}

const fail = (reason: TransactionCompileErrorReason, message: string): never => {
  throw new TransactionCompileError(reason, message)
}

const lookup = (address: string): Uint8Array => {
  let bytes: Uint8Array | null = null
  try {
    bytes = addressBytesOf(address)
  } catch {
    // not text at all: refused below like any malformed address
  }
  return bytes ?? fail("INVALID_ADDRESS", `not a base58 32-byte address: "${String(address).slice(0, 60)}"`)
}

const newEntry = (address: string, role: number, isFeePayer: boolean): AccountEntry => ({
  address,
  role,
  isFeePayer,
  bytes: lookup(address)
})

/** Deduplicated accounts with merged roles, as kit's address map builds them (same errors too). */
const collectAccounts = (feePayer: string, instructions: ReadonlyArray<Instruction>): Map<string, AccountEntry> => {
  const entries = new Map<string, AccountEntry>([[feePayer, newEntry(feePayer, WRITABLE_SIGNER, true)]])
  const invoked = new Set<string>()
  for (const instruction of instructions) {
    const program = instruction.programAddress
    invoked.add(program)
    const existing = entries.get(program)
    if (existing === undefined) {
      entries.set(program, newEntry(program, READONLY, false))
    } else if ((existing.role & WRITABLE_BIT) !== 0) {
      fail(
        existing.isFeePayer ? "INVOKED_PROGRAM_PAYS_FEES" : "INVOKED_PROGRAM_WRITABLE",
        `invoked program ${program} is ${existing.isFeePayer ? "the fee payer" : "writable"}`
      )
    }
    for (const meta of instruction.accounts ?? []) {
      if ("lookupTableAddress" in meta) fail("LOOKUP_TABLES_UNSUPPORTED", "address lookup tables are not supported")
      const entry = entries.get(meta.address)
      if (entry === undefined) {
        entries.set(meta.address, newEntry(meta.address, meta.role, false))
      } else if (!entry.isFeePayer) {
        if ((meta.role & WRITABLE_BIT) !== 0 && invoked.has(meta.address)) {
          fail("INVOKED_PROGRAM_WRITABLE", `invoked program ${meta.address} is used as a writable account`)
        }
        entry.role |= meta.role
      }
    }
  }
  return entries
}

/** 0 writable signers, 1 read-only signers, 2 writable non-signers, 3 read-only non-signers. */
const roleRank = (role: number): number => ((role & SIGNER_BIT) !== 0 ? 0 : 2) + ((role & WRITABLE_BIT) !== 0 ? 0 : 1)

const compareAccounts = (left: AccountEntry, right: AccountEntry): number => {
  if (left.isFeePayer) return -1
  if (right.isFeePayer) return 1
  const byRole = roleRank(left.role) - roleRank(right.role)
  if (byRole !== 0) return byRole
  return compareKitOrder(left.address, right.address)
}


let lastBlockhash = ""
let lastBlockhashBytes: Uint8Array = new Uint8Array(32)

/** Builds reuse one blockhash for a second or two: keep its bytes. */
const blockhashBytes = (blockhash: string): Uint8Array => {
  if (blockhash !== lastBlockhash) {
    const bytes = decodeBase58Bytes32(blockhash)
    if (bytes === null) return fail("INVALID_BLOCKHASH", `not a base58 32-byte blockhash: "${blockhash.slice(0, 60)}"`)
    lastBlockhash = blockhash
    lastBlockhashBytes = bytes
  }
  return lastBlockhashBytes
}

const checkLimits = (accounts: ReadonlyArray<AccountEntry>, instructions: ReadonlyArray<Instruction>, signers: number): void => {
  if (accounts.length > MAX_ACCOUNTS) fail("TOO_MANY_ACCOUNTS", `${accounts.length} accounts, at most ${MAX_ACCOUNTS}`)
  if (signers > MAX_SIGNERS) fail("TOO_MANY_SIGNERS", `${signers} signers, at most ${MAX_SIGNERS}`)
  if (instructions.length > MAX_INSTRUCTIONS) {
    fail("TOO_MANY_INSTRUCTIONS", `${instructions.length} instructions, at most ${MAX_INSTRUCTIONS}`)
  }
  for (const [position, instruction] of instructions.entries()) {
    const count = instruction.accounts?.length ?? 0
    if (count > MAX_ACCOUNTS_PER_INSTRUCTION) {
      fail("TOO_MANY_ACCOUNTS_IN_INSTRUCTION", `instruction ${position} has ${count} accounts, at most ${MAX_ACCOUNTS_PER_INSTRUCTION}`)
    }
    const dataLength = instruction.data?.length ?? 0
    if (dataLength > MAX_SHORT_U16) fail("DATA_TOO_LONG", `instruction ${position} has ${dataLength} data bytes`)
  }
}

/**
 * Compiles instructions into an unsigned v0 transaction (no lookup tables): one zero-filled
 * signature slot per signer. Throws TransactionCompileError where kit would throw.
 */
export const compileUnsignedV0 = (input: UnsignedV0Input): CompiledUnsignedV0 => {
  const { instructions } = input
  const accounts = [...collectAccounts(input.feePayer, instructions).values()].sort(compareAccounts)
  let signers = 0
  let readonlySigners = 0
  let readonlyNonSigners = 0
  const indexOf = new Map<string, number>()
  for (const [index, account] of accounts.entries()) {
    indexOf.set(account.address, index)
    if ((account.role & SIGNER_BIT) !== 0) {
      signers++
      if ((account.role & WRITABLE_BIT) === 0) readonlySigners++
    } else if ((account.role & WRITABLE_BIT) === 0) readonlyNonSigners++
  }
  checkLimits(accounts, instructions, signers)
  const recentBlockhash = blockhashBytes(input.blockhash)

  let messageLength = 1 + 3 + shortVecLength(accounts.length) + 32 * accounts.length + 32 + shortVecLength(instructions.length)
  for (const instruction of instructions) {
    const accountCount = instruction.accounts?.length ?? 0
    const dataLength = instruction.data?.length ?? 0
    messageLength += 1 + shortVecLength(accountCount) + accountCount + shortVecLength(dataLength) + dataLength
  }
  messageLength += 1 // no address table lookups

  const signaturesLength = shortVecLength(signers) + SIGNATURE_LENGTH * signers
  const wire = new Uint8Array(signaturesLength + messageLength) // zero-filled: the empty signatures
  writeShortVec(wire, 0, signers)
  let at = signaturesLength
  wire[at++] = VERSION_0_PREFIX
  wire[at++] = signers
  wire[at++] = readonlySigners
  wire[at++] = readonlyNonSigners
  at = writeShortVec(wire, at, accounts.length)
  for (const account of accounts) {
    wire.set(account.bytes, at)
    at += 32
  }
  wire.set(recentBlockhash, at)
  at += 32
  at = writeShortVec(wire, at, instructions.length)
  for (const instruction of instructions) {
    wire[at++] = indexOf.get(instruction.programAddress)!
    const metas = instruction.accounts ?? []
    at = writeShortVec(wire, at, metas.length)
    for (const meta of metas) wire[at++] = indexOf.get(meta.address)!
    const data = instruction.data ?? new Uint8Array(0)
    at = writeShortVec(wire, at, data.length)
    wire.set(data, at)
    at += data.length
  }
  wire[at++] = 0
  return {
    wireBytes: wire,
    messageBytes: wire.subarray(signaturesLength),
    header: {
      numSignerAccounts: signers,
      numReadonlySignerAccounts: readonlySigners,
      numReadonlyNonSignerAccounts: readonlyNonSigners
    },
    staticAccounts: accounts.map((account) => account.address)
  }
}

/** The standard base64 of the unsigned wire transaction (what `transactionBase64` carries). */
export const unsignedV0TransactionBase64 = (input: UnsignedV0Input): string => {
  const { wireBytes } = compileUnsignedV0(input)
  return Buffer.from(wireBytes.buffer, wireBytes.byteOffset, wireBytes.byteLength).toString("base64")
}
