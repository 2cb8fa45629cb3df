import { addressBytesOf } from "../../ntbundle/addressBytes.ts"
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
  const note = (address: string, isSigner: boolean, isWritable: boolean): void => {
    const known = flags.get(address)
    if (known === undefined) flags.set(address, { isSigner, isWritable })
    else {
      known.isSigner ||= isSigner
      known.isWritable ||= isWritable
    }
  }
  for (const instruction of instructions) {
    for (const meta of instruction.accounts) note(meta.address, meta.isSigner, meta.isWritable)
    note(instruction.programId, false, false)
  }
  const entries = Array.from(flags)
  const group = (isSigner: boolean, isWritable: boolean) =>
    entries.filter(([address, key]) => address !== feePayer && key.isSigner === isSigner && key.isWritable === isWritable).map(([address]) => address)
  const writableSigners = [feePayer, ...group(true, true)]
  const readonlySigners = group(true, false)
  const writableOthers = group(false, true)
  const readonlyOthers = group(false, false)
  const staticAccounts = [...writableSigners, ...readonlySigners, ...writableOthers, ...readonlyOthers]
  const indexOf = new Map(staticAccounts.map((address, index) => [address, index]))

  const header: MessageHeader = {
    numRequiredSignatures: writableSigners.length + readonlySigners.length,
    numReadonlySignedAccounts: readonlySigners.length,
    numReadonlyUnsignedAccounts: readonlyOthers.length
  }
  const parts: Array<Uint8Array | ReadonlyArray<number>> = [
    [header.numRequiredSignatures, header.numReadonlySignedAccounts, header.numReadonlyUnsignedAccounts],
    shortVec(staticAccounts.length),
    ...staticAccounts.map(keyBytes),
    addressToBytes(recentBlockhash),
    shortVec(instructions.length)
  ]
  const compiled: Array<CompiledInstruction> = []
  for (const instruction of instructions) {
    const programIndex = indexOf.get(instruction.programId)!
    const accountIndexes = instruction.accounts.map((meta) => indexOf.get(meta.address)!)
    compiled.push({ programIndex, accountIndexes, data: instruction.data })
    parts.push([programIndex], shortVec(accountIndexes.length), accountIndexes, shortVec(instruction.data.length), instruction.data)
  }
  return {
    messageBytes: concat(parts),
    signers: [...writableSigners, ...readonlySigners],
    header,
    staticAccounts,
    recentBlockhash,
    instructions: compiled
  }
}

/** The signatures of every required signer, in order; throws if a keypair is missing. */
export const signMessage = (message: SignableMessage, keypairs: ReadonlyArray<Keypair>): Array<Uint8Array> => {
  const byAddress = new Map(keypairs.map((keypair) => [keypair.address, keypair]))
  const signatures = message.signers.map((address) => {
    const keypair = byAddress.get(address)
    if (keypair === undefined) throw new Error(`no keypair for required signer ${address}`)
    return keypair.sign(message.messageBytes)
  })
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
