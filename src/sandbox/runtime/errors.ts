/**
 * Solana's instruction and transaction errors, in the JSON shape RPC nodes use (`"InvalidAccountData"`,
 * `{"Custom":6000}`, `{"InstructionError":[1,{"Custom":6000}]}`) and with the runtime's display texts,
 * which appear in `Program <id> failed: <text>` log lines and in preflight error messages.
 */

/** Text of each unit instruction error, as the runtime displays it. */
const INSTRUCTION_ERROR_TEXT = {
  GenericError: "generic instruction error",
  InvalidArgument: "invalid program argument",
  InvalidInstructionData: "invalid instruction data",
  InvalidAccountData: "invalid account data for instruction",
  AccountDataTooSmall: "account data too small for instruction",
  InsufficientFunds: "insufficient funds for instruction",
  IncorrectProgramId: "incorrect program id for instruction",
  MissingRequiredSignature: "missing required signature for instruction",
  AccountAlreadyInitialized: "instruction requires an uninitialized account",
  UninitializedAccount: "instruction requires an initialized account",
  UnbalancedInstruction: "sum of account balances before and after instruction do not match",
  ModifiedProgramId: "instruction illegally modified the program id of an account",
  ExternalAccountLamportSpend: "instruction spent from the balance of an account it does not own",
  ExternalAccountDataModified: "instruction modified data of an account it does not own",
  ReadonlyLamportChange: "instruction changed the balance of a read-only account",
  ReadonlyDataModified: "instruction modified data of a read-only account",
  NotEnoughAccountKeys: "insufficient account keys for instruction",
  AccountDataSizeChanged: "program other than the account's owner changed the size of the account data",
  AccountNotExecutable: "instruction expected an executable account",
  MissingAccount: "An account required by the instruction is missing",
  PrivilegeEscalation: "Cross-program invocation with unauthorized signer or writable account",
  UnsupportedProgramId: "Unsupported program id",
  CallDepth: "Cross-program invocation call depth too deep",
  ReentrancyNotAllowed: "Cross-program invocation reentrancy not allowed for this instruction",
  InvalidSeeds: "Provided seeds do not result in a valid address",
  InvalidRealloc: "Failed to reallocate account data",
  ComputationalBudgetExceeded: "Computational budget exceeded",
  ProgramFailedToComplete: "Program failed to complete",
  IllegalOwner: "Provided owner is not allowed",
  InvalidAccountOwner: "Invalid account owner",
  ArithmeticOverflow: "Program arithmetic overflowed",
  Immutable: "Account is immutable",
  IncorrectAuthority: "Incorrect authority provided"
} as const

export type InstructionErrorName = keyof typeof INSTRUCTION_ERROR_TEXT

/** An instruction error as it appears in JSON: a unit variant's name, or a custom program error code. */
export type InstructionError = InstructionErrorName | { readonly Custom: number }

export const customError = (code: number): InstructionError => ({ Custom: code })

export const instructionErrorText = (error: InstructionError): string =>
  typeof error === "string" ? INSTRUCTION_ERROR_TEXT[error] : `custom program error: 0x${error.Custom.toString(16)}`

/**
 * Thrown (or returned) by program handlers to fail the current instruction. `logLine`, when
 * given, is written to the transaction's logs before the `Program <id> failed: ...` line.
 */
export class InstructionFailure extends Error {
  constructor(
    readonly error: InstructionError,
    readonly logLine?: string
  ) {
    super(logLine ?? instructionErrorText(error))
  }
}

/** Fails the instruction, logging `Program log: <message>` first when a message is given (as programs do). */
export const fail = (error: InstructionError, message?: string): never => {
  throw new InstructionFailure(error, message === undefined ? undefined : `Program log: ${message}`)
}

/** Fails with a bare log line, as native programs and the runtime itself log (`Transfer: insufficient lamports ...`). */
export const failWithRuntimeLog = (error: InstructionError, line: string): never => {
  throw new InstructionFailure(error, line)
}

const TRANSACTION_ERROR_TEXT = {
  AccountInUse: "Account in use",
  AccountLoadedTwice: "Account loaded twice",
  AccountNotFound: "Attempt to debit an account but found no record of a prior credit.",
  ProgramAccountNotFound: "Attempt to load a program that does not exist",
  InsufficientFundsForFee: "Insufficient funds for fee",
  InvalidAccountForFee: "This account may not be used to pay transaction fees",
  AlreadyProcessed: "This transaction has already been processed",
  BlockhashNotFound: "Blockhash not found",
  CallChainTooDeep: "Loader call chain is too deep",
  MissingSignatureForFee: "Transaction requires a fee but has no signature present",
  InvalidAccountIndex: "Transaction contains an invalid account reference",
  SignatureFailure: "Transaction did not pass signature verification",
  InvalidProgramForExecution: "This program may not be used for executing instructions",
  SanitizeFailure: "Transaction failed to sanitize accounts offsets correctly",
  UnsupportedVersion: "Transaction version is unsupported",
  InvalidWritableAccount: "Transaction loads a writable account that cannot be written",
  AddressLookupTableNotFound: "Transaction loads an address table account that doesn't exist",
  UnbalancedTransaction: "Sum of account balances before and after transaction do not match",
  TooManyAccountLocks: "Transaction locked too many accounts"
} as const

export type TransactionErrorName = keyof typeof TRANSACTION_ERROR_TEXT

export type TransactionError =
  | TransactionErrorName
  | { readonly InstructionError: readonly [number, InstructionError] }
  | { readonly InsufficientFundsForRent: { readonly account_index: number } }
  | { readonly DuplicateInstruction: number }

export const transactionErrorText = (error: TransactionError): string => {
  if (typeof error === "string") return TRANSACTION_ERROR_TEXT[error]
  if ("InstructionError" in error) {
    return `Error processing Instruction ${error.InstructionError[0]}: ${instructionErrorText(error.InstructionError[1])}`
  }
  if ("InsufficientFundsForRent" in error) {
    return `Transaction results in an account (${error.InsufficientFundsForRent.account_index}) with insufficient funds for rent`
  }
  return `Transaction contains a duplicate instruction (${error.DuplicateInstruction}) that is not allowed`
}
