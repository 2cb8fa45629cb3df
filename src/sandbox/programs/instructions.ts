import { writeU32, writeU64 } from "../codec/bytes.ts"
import { addressToBytes } from "../crypto/keypair.ts"
import { findProgramAddress } from "../../ntbundle/programAddress.ts"
import type { AccountMeta, Instruction } from "../runtime/program.ts"
import { ASSOCIATED_TOKEN_PROGRAM_ID, COMPUTE_BUDGET_PROGRAM_ID, MEMO_PROGRAM_ID, SYSTEM_PROGRAM_ID, TOKEN_PROGRAM_ID } from "./ids.ts"

/** Instruction builders for the builtin programs, in their real encodings (for internal actors and tests). */
const meta = (address: string, isSigner: boolean, isWritable: boolean): AccountMeta => ({ address, isSigner, isWritable })

export const associatedTokenAddress = (wallet: string, mint: string, tokenProgramId: string = TOKEN_PROGRAM_ID): string =>
  findProgramAddress([addressToBytes(wallet), addressToBytes(tokenProgramId), addressToBytes(mint)], ASSOCIATED_TOKEN_PROGRAM_ID)[0]

export const systemTransfer = (from: string, to: string, lamports: bigint): Instruction => {
  const data = new Uint8Array(12)
  writeU32(data, 0, 2)
  writeU64(data, 4, lamports)
  return { programId: SYSTEM_PROGRAM_ID, accounts: [meta(from, true, true), meta(to, false, true)], data }
}

export const systemCreateAccount = (from: string, newAccount: string, lamports: bigint, space: number, owner: string): Instruction => {
  const data = new Uint8Array(52)
  writeU32(data, 0, 0)
  writeU64(data, 4, lamports)
  writeU64(data, 12, BigInt(space))
  data.set(addressToBytes(owner), 20)
  return { programId: SYSTEM_PROGRAM_ID, accounts: [meta(from, true, true), meta(newAccount, true, true)], data }
}

const amountData = (tag: number, amount: bigint, decimals?: number): Uint8Array => {
  const data = new Uint8Array(decimals === undefined ? 9 : 10)
  data[0] = tag
  writeU64(data, 1, amount)
  if (decimals !== undefined) data[9] = decimals
  return data
}

export const tokenTransfer = (source: string, destination: string, authority: string, amount: bigint): Instruction => ({
  programId: TOKEN_PROGRAM_ID,
  accounts: [meta(source, false, true), meta(destination, false, true), meta(authority, true, false)],
  data: amountData(3, amount)
})

export const tokenTransferChecked = (
  source: string,
  mint: string,
  destination: string,
  authority: string,
  amount: bigint,
  decimals: number
): Instruction => ({
  programId: TOKEN_PROGRAM_ID,
  accounts: [meta(source, false, true), meta(mint, false, false), meta(destination, false, true), meta(authority, true, false)],
  data: amountData(12, amount, decimals)
})

export const tokenMintTo = (mint: string, destination: string, authority: string, amount: bigint): Instruction => ({
  programId: TOKEN_PROGRAM_ID,
  accounts: [meta(mint, false, true), meta(destination, false, true), meta(authority, true, false)],
  data: amountData(7, amount)
})

export const tokenInitializeMint2 = (mint: string, decimals: number, mintAuthority: string): Instruction => {
  const data = new Uint8Array(67)
  data[0] = 20
  data[1] = decimals
  data.set(addressToBytes(mintAuthority), 2)
  return { programId: TOKEN_PROGRAM_ID, accounts: [meta(mint, false, true)], data }
}

export const tokenInitializeAccount3 = (account: string, mint: string, owner: string): Instruction => {
  const data = new Uint8Array(33)
  data[0] = 18
  data.set(addressToBytes(owner), 1)
  return { programId: TOKEN_PROGRAM_ID, accounts: [meta(account, false, true), meta(mint, false, false)], data }
}

export const createAssociatedTokenAccount = (
  payer: string,
  wallet: string,
  mint: string,
  options: { readonly idempotent?: boolean } = {}
): Instruction => ({
  programId: ASSOCIATED_TOKEN_PROGRAM_ID,
  accounts: [
    meta(payer, true, true),
    meta(associatedTokenAddress(wallet, mint), false, true),
    meta(wallet, false, false),
    meta(mint, false, false),
    meta(SYSTEM_PROGRAM_ID, false, false),
    meta(TOKEN_PROGRAM_ID, false, false)
  ],
  data: Uint8Array.of(options.idempotent === true ? 1 : 0)
})

export const setComputeUnitLimit = (units: number): Instruction => {
  const data = new Uint8Array(5)
  data[0] = 2
  writeU32(data, 1, units)
  return { programId: COMPUTE_BUDGET_PROGRAM_ID, accounts: [], data }
}

export const setComputeUnitPrice = (microLamports: bigint): Instruction => {
  const data = new Uint8Array(9)
  data[0] = 3
  writeU64(data, 1, microLamports)
  return { programId: COMPUTE_BUDGET_PROGRAM_ID, accounts: [], data }
}

export const memo = (text: string, signers: ReadonlyArray<string> = []): Instruction => ({
  programId: MEMO_PROGRAM_ID,
  accounts: signers.map((signer) => meta(signer, true, false)),
  data: new TextEncoder().encode(text)
})
