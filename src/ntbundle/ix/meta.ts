import { AccountRole, type AccountMeta, type Address, type Instruction } from "@solana/kit"

/** A kit instruction whose accounts and data are always present (every builder here fills both). */
export interface BuiltInstruction extends Instruction {
  readonly accounts: ReadonlyArray<AccountMeta>
  readonly data: Uint8Array
}

export const writableSigner = (address: Address): AccountMeta => ({ address, role: AccountRole.WRITABLE_SIGNER })
export const readonlySigner = (address: Address): AccountMeta => ({ address, role: AccountRole.READONLY_SIGNER })
export const writable = (address: Address): AccountMeta => ({ address, role: AccountRole.WRITABLE })
export const readonly = (address: Address): AccountMeta => ({ address, role: AccountRole.READONLY })

export const instruction = (
  programAddress: Address,
  accounts: ReadonlyArray<AccountMeta>,
  data: Uint8Array
): BuiltInstruction => ({ programAddress, accounts, data })
