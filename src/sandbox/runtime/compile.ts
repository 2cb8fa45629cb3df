import {
  getCompiledTransactionMessageEncoder,
  getTransactionEncoder,
  type Address,
  type Blockhash,
  type SignatureBytes,
  type TransactionMessageBytes
} from "@solana/kit"
import type { Keypair } from "../crypto/keypair.ts"
import type { Instruction } from "./program.ts"

/**
 * Builds and signs legacy transactions for the sandbox's own actors (keeper, scenarios, faucet)
 * with keypairs they hold; the wire bytes then take the same path as a sendTransaction call.
 * Accounts are ordered as Solana requires: fee payer, other writable signers, read-only signers,
 * writable non-signers, read-only non-signers (first appearance order within each group).
 */
interface KeyFlags {
  isSigner: boolean
  isWritable: boolean
}

const messageEncoder = getCompiledTransactionMessageEncoder()
const transactionEncoder = getTransactionEncoder()

export interface CompiledLegacyMessage {
  readonly messageBytes: Uint8Array
  /** Required signers in signature order. */
  readonly signers: ReadonlyArray<string>
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
  const bytes = messageEncoder.encode({
    version: "legacy",
    header: {
      numSignerAccounts: writableSigners.length + readonlySigners.length,
      numReadonlySignerAccounts: readonlySigners.length,
      numReadonlyNonSignerAccounts: readonlyOthers.length
    },
    staticAccounts: staticAccounts as Address[],
    lifetimeToken: recentBlockhash as Blockhash,
    instructions: instructions.map((instruction) => ({
      programAddressIndex: indexOf.get(instruction.programId)!,
      accountIndices: instruction.accounts.map((meta) => indexOf.get(meta.address)!),
      data: instruction.data
    }))
  })
  return { messageBytes: new Uint8Array(bytes), signers: [...writableSigners, ...readonlySigners] }
}

/** Signs with every keypair whose address is a required signer; throws if one is missing. */
export const signTransaction = (message: CompiledLegacyMessage, keypairs: ReadonlyArray<Keypair>): Uint8Array => {
  const { messageBytes } = message
  const byAddress = new Map(keypairs.map((keypair) => [keypair.address, keypair]))
  const signatures: Record<string, SignatureBytes> = {}
  for (const address of message.signers) {
    const keypair = byAddress.get(address)
    if (keypair === undefined) throw new Error(`no keypair for required signer ${address}`)
    signatures[address] = keypair.sign(messageBytes) as SignatureBytes
  }
  return new Uint8Array(
    transactionEncoder.encode({
      messageBytes: messageBytes as unknown as TransactionMessageBytes,
      signatures: signatures as Record<Address, SignatureBytes>
    })
  )
}
