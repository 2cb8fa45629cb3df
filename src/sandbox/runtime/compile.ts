import { addressBytesOf } from "../../ntbundle/addressBytes.ts"
import { shortVecLength, writeShortVec } from "../../tx/shortVec.ts"
import type { Keypair } from "../crypto/keypair.ts"
import { addressToBytes } from "../crypto/keypair.ts"
import type { CompiledInstruction, MessageHeader } from "./message.ts"
import type { Instruction } from "./program.ts"

/**
 * Builds and signs legacy transactions for the sandbox's own actors (keeper, scenarios, faucet)
 * with keypairs they hold; the wire bytes then take the same path as a sendTransaction call
 * (decoded there with kit's decoders, signatures verified). Accounts are ordered as Solana
 * requires: fee payer, other writable signers, read-only signers, writable non-signers,
 * read-only non-signers (first appearance order within each group). Encoded here rather than
 * with kit's codecs, which convert every address through bigint base58 (the keeper and bulk
 * activity send many transactions). The compiled form is returned too, so the sender need not
 * decode what it has just encoded.
 */
interface KeyFlags {
  isSigner: boolean
  isWritable: boolean
}

export interface SignableMessage {
  readonly messageBytes: Uint8Array
  /** Required signers in signature order. */
  readonly signers: ReadonlyArray<string>
}

export interface CompiledLegacyMessage extends SignableMessage {
  readonly header: MessageHeader
  readonly staticAccounts: ReadonlyArray<string>
  readonly recentBlockhash: string
  readonly instructions: ReadonlyArray<CompiledInstruction>
}

/** Address bytes through the shared memo (the sandbox's actors reuse a few hundred addresses). */
const keyBytes = (address: string): Uint8Array => addressBytesOf(address) ?? addressToBytes(address)

/** Solana's compact-u16 length prefix. */
const shortVec = (value: number): number[] => {
  const out: number[] = []
  let rest = value
  for (;;) {
    const byte = rest & 0x7f
    rest >>= 7
    if (rest === 0) {
      out.push(byte)
      return out
    }
    out.push(byte | 0x80)
  }
}


export const compileLegacyMessage = (
  feePayer: string,
  instructions: ReadonlyArray<Instruction>,
  recentBlockhash: string
): CompiledLegacyMessage => {
  const flags = new Map<string, KeyFlags>([[feePayer, { isSigner: true, isWritable: true }]])
  for (const instruction of instructions) {
    for (const meta of instruction.accounts) noteKey(flags, meta.address, meta.isSigner, meta.isWritable)
    noteKey(flags, instruction.programId, false, false)
  }
  // The four groups, each in first-appearance order.
  const writableSigners = [feePayer]
  const readonlySigners: string[] = []
  const writableOthers: string[] = []
  const readonlyOthers: string[] = []
  for (const [address, key] of flags) {
    if (address === feePayer) continue
    if (key.isSigner) (key.isWritable ? writableSigners : readonlySigners).push(address)
    else (key.isWritable ? writableOthers : readonlyOthers).push(address)
  }
  const signers = [...writableSigners, ...readonlySigners]
  const staticAccounts = [...signers, ...writableOthers, ...readonlyOthers]
  const indexOf = new Map<string, number>()
  for (let index = 0; index < staticAccounts.length; index++) indexOf.set(staticAccounts[index]!, index)

  const header: MessageHeader = {
    numRequiredSignatures: signers.length,
    numReadonlySignedAccounts: readonlySigners.length,
    numReadonlyUnsignedAccounts: readonlyOthers.length
  }
  const compiled: Array<CompiledInstruction> = []
  let length = 3 + shortVecLength(staticAccounts.length) + 32 * staticAccounts.length + 32 + shortVecLength(instructions.length)
  for (const instruction of instructions) {
    const accountIndexes: number[] = []
    for (const meta of instruction.accounts) accountIndexes.push(indexOf.get(meta.address)!)
    compiled.push({ programIndex: indexOf.get(instruction.programId)!, accountIndexes, data: instruction.data })
    length += 1 + shortVecLength(accountIndexes.length) + accountIndexes.length + shortVecLength(instruction.data.length) + instruction.data.length
  }
  const messageBytes = new Uint8Array(length)
  messageBytes[0] = header.numRequiredSignatures
  messageBytes[1] = header.numReadonlySignedAccounts
  messageBytes[2] = header.numReadonlyUnsignedAccounts
  let offset = writeShortVec(messageBytes, 3, staticAccounts.length)
  for (const address of staticAccounts) {
    messageBytes.set(keyBytes(address), offset)
    offset += 32
  }
  messageBytes.set(addressToBytes(recentBlockhash), offset)
  offset = writeShortVec(messageBytes, offset + 32, instructions.length)
  for (const instruction of compiled) {
    messageBytes[offset++] = instruction.programIndex
    offset = writeShortVec(messageBytes, offset, instruction.accountIndexes.length)
    messageBytes.set(instruction.accountIndexes, offset)
    offset += instruction.accountIndexes.length
    offset = writeShortVec(messageBytes, offset, instruction.data.length)
    messageBytes.set(instruction.data, offset)
    offset += instruction.data.length
  }
  return { messageBytes, signers, header, staticAccounts, recentBlockhash, instructions: compiled }
}

const noteKey = (flags: Map<string, KeyFlags>, address: string, isSigner: boolean, isWritable: boolean): void => {
  const known = flags.get(address)
  if (known === undefined) flags.set(address, { isSigner, isWritable })
  else {
    known.isSigner ||= isSigner
    known.isWritable ||= isWritable
  }
}

/** The signatures of every required signer, in order; throws if a keypair is missing. */
export const signMessage = (message: SignableMessage, keypairs: ReadonlyArray<Keypair>): Array<Uint8Array> => {
  const signatures: Uint8Array[] = []
  for (const address of message.signers) {
    const keypair = keypairs.find((candidate) => candidate.address === address)
    if (keypair === undefined) throw new Error(`no keypair for required signer ${address}`)
    signatures.push(keypair.sign(message.messageBytes))
  }
  return signatures
}

/** Wire bytes: the signatures' count, the signatures, the message. */
export const wireTransaction = (message: SignableMessage, signatures: ReadonlyArray<Uint8Array>): Uint8Array =>
  concat([shortVec(signatures.length), ...signatures, message.messageBytes])

/** Signs with every keypair whose address is a required signer; throws if one is missing. */
export const signTransaction = (message: SignableMessage, keypairs: ReadonlyArray<Keypair>): Uint8Array =>
  wireTransaction(message, signMessage(message, keypairs))

const concat = (parts: ReadonlyArray<Uint8Array | ReadonlyArray<number>>): Uint8Array => {
  const out = new Uint8Array(parts.reduce((length, part) => length + part.length, 0))
  let offset = 0
  for (const part of parts) {
    out.set(part, offset)
    offset += part.length
  }
  return out
}
