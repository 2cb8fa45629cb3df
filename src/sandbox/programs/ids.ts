/** Well-known addresses of the builtin programs and sysvars the sandbox hosts. */
export const SYSTEM_PROGRAM_ID = "11111111111111111111111111111111"
export const TOKEN_PROGRAM_ID = "TokenkegQfeZyiNwAJbNbGKPFXCWuBvf9Ss623VQ5DA"
export const ASSOCIATED_TOKEN_PROGRAM_ID = "ATokenGPvbdGVxr1b2hvZbsiqW5xWH25efTNsLJA8knL"
export const COMPUTE_BUDGET_PROGRAM_ID = "ComputeBudget111111111111111111111111111111"
export const MEMO_PROGRAM_ID = "MemoSq4gqABAXKb96qnH8TysNcWxMyWCqXgDLGmfcHr"
export const MEMO_V1_PROGRAM_ID = "Memo1UhkJRfHyvLMcVucJwxXeuD728EqVDDwQDxFMNo"
export const SYSVAR_RENT_ID = "SysvarRent111111111111111111111111111111111"
export const SYSVAR_CLOCK_ID = "SysvarC1ock11111111111111111111111111111111"
export const SYSVAR_OWNER_ID = "Sysvar1111111111111111111111111111111111111"

/** The ntbundle program on mainnet: the sandbox's default program id. */
export const DEFAULT_NTBUNDLE_PROGRAM_ID = "BUNDDh4P5XviMm1f3gCvnq2qKx6TGosAGnoUK12e7cXU"

/** Solana's rent: lamports per byte-year times the two-year exemption threshold. */
const RENT_LAMPORTS_PER_BYTE = 6960n
const ACCOUNT_STORAGE_OVERHEAD = 128n

export const minimumBalanceForRentExemption = (dataLength: number): bigint =>
  (ACCOUNT_STORAGE_OVERHEAD + BigInt(dataLength)) * RENT_LAMPORTS_PER_BYTE

export const LAMPORTS_PER_SIGNATURE = 5000n
