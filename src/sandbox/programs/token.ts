import { readAddress, readU64, writeU64 } from "../codec/bytes.ts"
import { customError, fail } from "../runtime/errors.ts"
import type { InvocationContext, ProgramHandler } from "../runtime/program.ts"
import { minimumBalanceForRentExemption, SYSVAR_RENT_ID, TOKEN_PROGRAM_ID } from "./ids.ts"
import { decodeMint, decodeTokenAccount, encodeMint, encodeTokenAccount, MINT_SIZE, TOKEN_ACCOUNT_SIZE, type TokenAccount } from "./tokenLayout.ts"

/**
 * SPL Token (the original program, not Token-2022): mints and token accounts in their real
 * layouts; InitializeMint(2), InitializeAccount(2/3), Transfer(Checked), MintTo(Checked),
 * Burn(Checked), CloseAccount, GetAccountDataSize, InitializeImmutableOwner, with the program's
 * error codes and `Program log: Instruction: ...` / `Program log: Error: ...` lines.
 *
 * Not modelled: multisig authorities, wrapped SOL (native accounts fail with NativeNotSupported),
 * approvals (an existing delegate is honoured), freezing. Compute costs are fixed per instruction.
 */
const TOKEN_ERROR = {
  NotRentExempt: [0, "Lamport balance below rent-exempt threshold"],
  InsufficientFunds: [1, "insufficient funds"],
  InvalidMint: [2, "Invalid Mint"],
  MintMismatch: [3, "Account not associated with this Mint"],
  OwnerMismatch: [4, "owner does not match"],
  FixedSupply: [5, "the total supply of this token is fixed"],
  AlreadyInUse: [6, "account or token already in use"],
  UninitializedState: [9, "State is uninitialized"],
  NativeNotSupported: [10, "Instruction does not support native tokens"],
  NonNativeHasBalance: [11, "Non-native account can only be closed if its balance is zero"],
  InvalidInstruction: [12, "Invalid instruction"],
  Overflow: [14, "Operation overflowed"],
  AccountFrozen: [17, "Account is frozen"],
  MintDecimalsMismatch: [18, "decimals different from the Mint decimals"]
} as const

const tokenFail = (name: keyof typeof TOKEN_ERROR): never => {
  const [code, text] = TOKEN_ERROR[name]
  return fail(customError(code), `Error: ${text}`)
}

const U64_MAX = 2n ** 64n - 1n

const requireTokenOwned = (context: InvocationContext, address: string): void => {
  if (context.account(address).owner !== TOKEN_PROGRAM_ID) fail("IncorrectProgramId")
}

const loadMint = (context: InvocationContext, address: string) => {
  requireTokenOwned(context, address)
  const mint = decodeMint(context.account(address).data)
  if (mint === undefined || !mint.isInitialized) return tokenFail("InvalidMint")
  return mint
}

const loadTokenAccount = (context: InvocationContext, address: string): TokenAccount => {
  requireTokenOwned(context, address)
  const account = decodeTokenAccount(context.account(address).data)
  if (account === undefined) return fail("InvalidAccountData")
  if (account.state === "uninitialized") return tokenFail("UninitializedState")
  if (account.state === "frozen") return tokenFail("AccountFrozen")
  if (account.isNative !== null) return tokenFail("NativeNotSupported")
  return account
}

/** Owner (must sign) or delegate within its allowance; returns the new delegated amount if a delegate spent. */
const authorize = (context: InvocationContext, account: TokenAccount, authority: string, amount: bigint): bigint | undefined => {
  if (authority === account.owner) {
    if (!context.isSigner(authority)) fail("MissingRequiredSignature")
    return undefined
  }
  if (account.delegate === authority && context.isSigner(authority)) {
    if (account.delegatedAmount < amount) tokenFail("InsufficientFunds")
    return account.delegatedAmount - amount
  }
  return tokenFail("OwnerMismatch")
}

const setAmount = (context: InvocationContext, address: string, amount: bigint): void => writeU64(context.dataMut(address), 64, amount)

const transfer = (context: InvocationContext, checked: boolean): void => {
  const data = context.instruction.data
  if (data.length < (checked ? 10 : 9)) tokenFail("InvalidInstruction")
  const amount = readU64(data, 1)
  const source = context.accountAt(0).address
  const mintAddress = checked ? context.accountAt(1).address : undefined
  const destination = context.accountAt(checked ? 2 : 1).address
  const authority = context.accountAt(checked ? 3 : 2).address
  const sourceAccount = loadTokenAccount(context, source)
  const destinationAccount = loadTokenAccount(context, destination)
  if (sourceAccount.mint !== destinationAccount.mint) tokenFail("MintMismatch")
  if (sourceAccount.amount < amount) tokenFail("InsufficientFunds")
  if (mintAddress !== undefined) {
    if (mintAddress !== sourceAccount.mint) tokenFail("MintMismatch")
    if (loadMint(context, mintAddress).decimals !== data[9]) tokenFail("MintDecimalsMismatch")
  }
  const delegatedLeft = authorize(context, sourceAccount, authority, amount)
  if (delegatedLeft !== undefined) writeU64(context.dataMut(source), 121, delegatedLeft)
  if (source === destination) return
  if (destinationAccount.amount + amount > U64_MAX) tokenFail("Overflow")
  setAmount(context, source, sourceAccount.amount - amount)
  setAmount(context, destination, destinationAccount.amount + amount)
}

const mintTo = (context: InvocationContext, checked: boolean): void => {
  const data = context.instruction.data
  if (data.length < (checked ? 10 : 9)) tokenFail("InvalidInstruction")
  const amount = readU64(data, 1)
  const [mintAddress, destination, authority] = [0, 1, 2].map((index) => context.accountAt(index).address) as [string, string, string]
  const mint = loadMint(context, mintAddress)
  if (checked && mint.decimals !== data[9]) tokenFail("MintDecimalsMismatch")
  const destinationAccount = loadTokenAccount(context, destination)
  if (destinationAccount.mint !== mintAddress) tokenFail("MintMismatch")
  if (mint.mintAuthority === null) tokenFail("FixedSupply")
  if (mint.mintAuthority !== authority) tokenFail("OwnerMismatch")
  if (!context.isSigner(authority)) fail("MissingRequiredSignature")
  if (mint.supply + amount > U64_MAX) tokenFail("Overflow")
  writeU64(context.dataMut(mintAddress), 36, mint.supply + amount)
  setAmount(context, destination, destinationAccount.amount + amount)
}

const burn = (context: InvocationContext, checked: boolean): void => {
  const data = context.instruction.data
  if (data.length < (checked ? 10 : 9)) tokenFail("InvalidInstruction")
  const amount = readU64(data, 1)
  const [source, mintAddress, authority] = [0, 1, 2].map((index) => context.accountAt(index).address) as [string, string, string]
  const account = loadTokenAccount(context, source)
  const mint = loadMint(context, mintAddress)
  if (account.mint !== mintAddress) tokenFail("MintMismatch")
  if (checked && mint.decimals !== data[9]) tokenFail("MintDecimalsMismatch")
  if (account.amount < amount) tokenFail("InsufficientFunds")
  const delegatedLeft = authorize(context, account, authority, amount)
  if (delegatedLeft !== undefined) writeU64(context.dataMut(source), 121, delegatedLeft)
  setAmount(context, source, account.amount - amount)
  writeU64(context.dataMut(mintAddress), 36, mint.supply - amount)
}

const closeAccount = (context: InvocationContext): void => {
  const [source, destination, authority] = [0, 1, 2].map((index) => context.accountAt(index).address) as [string, string, string]
  const account = loadTokenAccount(context, source)
  if (account.amount !== 0n) tokenFail("NonNativeHasBalance")
  if ((account.closeAuthority ?? account.owner) !== authority) tokenFail("OwnerMismatch")
  if (!context.isSigner(authority)) fail("MissingRequiredSignature")
  context.transferLamports(source, destination, context.account(source).lamports)
  context.setData(source, new Uint8Array(0))
}

const initializeMint = (context: InvocationContext, withRentSysvar: boolean): void => {
  const data = context.instruction.data
  if (data.length < 35) tokenFail("InvalidInstruction")
  const mintAddress = context.accountAt(0).address
  if (withRentSysvar && context.accountAt(1).address !== SYSVAR_RENT_ID) fail("InvalidArgument")
  requireTokenOwned(context, mintAddress)
  const current = context.account(mintAddress)
  if (current.data.length !== MINT_SIZE) fail("InvalidAccountData")
  if (decodeMint(current.data)?.isInitialized === true) tokenFail("AlreadyInUse")
  if (current.lamports < minimumBalanceForRentExemption(MINT_SIZE)) tokenFail("NotRentExempt")
  const freezeAuthority = data[34] === 1 && data.length >= 67 ? readAddress(data, 35) : null
  const mint = { mintAuthority: readAddress(data, 2), supply: 0n, decimals: data[1]!, isInitialized: true, freezeAuthority }
  context.dataMut(mintAddress).set(encodeMint(mint))
}

const initializeAccount = (context: InvocationContext, variant: 1 | 2 | 3): void => {
  const data = context.instruction.data
  const address = context.accountAt(0).address
  const mintAddress = context.accountAt(1).address
  let owner: string
  if (variant === 1) owner = context.accountAt(2).address
  else {
    if (data.length < 33) tokenFail("InvalidInstruction")
    owner = readAddress(data, 1)
  }
  const rentIndex = variant === 1 ? 3 : variant === 2 ? 2 : undefined
  if (rentIndex !== undefined && context.accountAt(rentIndex).address !== SYSVAR_RENT_ID) fail("InvalidArgument")
  requireTokenOwned(context, address)
  const current = context.account(address)
  if (current.data.length !== TOKEN_ACCOUNT_SIZE) fail("InvalidAccountData")
  if (current.data[108] !== 0) tokenFail("AlreadyInUse")
  if (current.lamports < minimumBalanceForRentExemption(TOKEN_ACCOUNT_SIZE)) tokenFail("NotRentExempt")
  loadMint(context, mintAddress)
  const account: TokenAccount = {
    mint: mintAddress,
    owner,
    amount: 0n,
    delegate: null,
    state: "initialized",
    isNative: null,
    delegatedAmount: 0n,
    closeAuthority: null
  }
  context.dataMut(address).set(encodeTokenAccount(account))
}

/** [name logged, compute units, handler] per instruction tag. */
const INSTRUCTIONS: Record<number, readonly [string, number, (context: InvocationContext) => void]> = {
  0: ["InitializeMint", 2_967, (context) => initializeMint(context, true)],
  1: ["InitializeAccount", 4_527, (context) => initializeAccount(context, 1)],
  3: ["Transfer", 4_644, (context) => transfer(context, false)],
  7: ["MintTo", 4_538, (context) => mintTo(context, false)],
  8: ["Burn", 4_753, (context) => burn(context, false)],
  9: ["CloseAccount", 2_916, closeAccount],
  12: ["TransferChecked", 6_200, (context) => transfer(context, true)],
  14: ["MintToChecked", 4_590, (context) => mintTo(context, true)],
  15: ["BurnChecked", 4_800, (context) => burn(context, true)],
  16: ["InitializeAccount2", 4_388, (context) => initializeAccount(context, 2)],
  18: ["InitializeAccount3", 4_188, (context) => initializeAccount(context, 3)],
  20: ["InitializeMint2", 2_780, (context) => initializeMint(context, false)],
  21: [
    "GetAccountDataSize",
    1_622,
    (context) => {
      loadMint(context, context.accountAt(0).address)
      const size = new Uint8Array(8)
      writeU64(size, 0, BigInt(TOKEN_ACCOUNT_SIZE))
      context.setReturnData(size)
    }
  ],
  22: [
    "InitializeImmutableOwner",
    1_405,
    (context) => {
      const address = context.accountAt(0).address
      requireTokenOwned(context, address)
      if (context.account(address).data[108] !== 0) tokenFail("AlreadyInUse")
      context.log("Please upgrade to SPL Token 2022 for immutable owner support")
    }
  ]
}

const execute = (context: InvocationContext): void => {
  const entry = INSTRUCTIONS[context.instruction.data[0] ?? -1]
  if (entry === undefined) return tokenFail("InvalidInstruction")
  const [name, units, run] = entry
  context.log(`Instruction: ${name}`)
  context.consumeComputeUnits(units)
  run(context)
}

export const tokenProgram: ProgramHandler = {
  programId: TOKEN_PROGRAM_ID,
  name: "spl-token",
  kind: "bpf",
  baseComputeUnits: 0,
  execute
}

