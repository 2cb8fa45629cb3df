import { address, type Address } from "@solana/kit"

/** The ntbundle program on mainnet (the IDL `address`); the default for every mainnet registry entry. */
export const NTBUNDLE_PROGRAM_ID: Address = address("BUNDDh4P5XviMm1f3gCvnq2qKx6TGosAGnoUK12e7cXU")

/** The ntbundle program on devnet. */
export const NTBUNDLE_DEVNET_PROGRAM_ID: Address = address("CcR9whVnaW3STx6LLYotwy5JJXmnC8KDjtRotA3NCL8v")

/**
 * An older mainnet deployment with a different ("Jupiter") account layout, used only by registry
 * vault 69. The main IDL's codecs do not apply to it.
 */
export const NTBUNDLE_LEGACY_PROGRAM_ID: Address = address("BUNDeH5A4c47bcEoAjBhN3sCjLgYnRsmt9ibMztqVkC9")

export type Cluster = "mainnet" | "devnet"

/** The ntbundle program each cluster's registry entries use unless they name another one. */
export const DEFAULT_NTBUNDLE_PROGRAM_ID: Readonly<Record<Cluster, Address>> = {
  mainnet: NTBUNDLE_PROGRAM_ID,
  devnet: NTBUNDLE_DEVNET_PROGRAM_ID
}

/** Programs whose accounts and instructions follow the main IDL (so our codecs apply). */
export const isMainLayoutNtbundleProgram = (program: Address): boolean =>
  program === NTBUNDLE_PROGRAM_ID || program === NTBUNDLE_DEVNET_PROGRAM_ID

export const TOKEN_PROGRAM_ID: Address = address("TokenkegQfeZyiNwAJbNbGKPFXCWuBvf9Ss623VQ5DA")
export const ASSOCIATED_TOKEN_PROGRAM_ID: Address = address("ATokenGPvbdGVxr1b2hvZbsiqW5xWH25efTNsLJA8knL")
export const SYSTEM_PROGRAM_ID: Address = address("11111111111111111111111111111111")
export const RENT_SYSVAR_ID: Address = address("SysvarRent111111111111111111111111111111111")
export const MEMO_PROGRAM_ID: Address = address("MemoSq4gqABAXKb96qnH8TysNcWxMyWCqXgDLGmfcHr")
export const COMPUTE_BUDGET_PROGRAM_ID: Address = address("ComputeBudget111111111111111111111111111111")
