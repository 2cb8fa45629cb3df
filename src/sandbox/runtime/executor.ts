import type { AccountState, Ledger } from "../ledger/ledger.ts"
import type { TokenBalance } from "../ledger/transactionStore.ts"
import { prioritizationFee, readComputeBudget } from "../programs/computeBudget.ts"
import { LAMPORTS_PER_SIGNATURE, minimumBalanceForRentExemption, SYSTEM_PROGRAM_ID } from "../programs/ids.ts"
import { InstructionFailure, type TransactionError } from "./errors.ts"
import { ComputeMeter, executeInstruction, LogCollector, privilegesOf, type ExecutionEnvironment } from "./invocation.ts"
import { isSignerIndex, isWritableIndex, type DecodedMessage } from "./message.ts"
import { AccountOverlay } from "./overlay.ts"
import type { Instruction, ProgramRegistry } from "./program.ts"
import { tokenBalancesOf } from "./tokenBalances.ts"

/**
 * Executes a sanitized message against the ledger without committing: fee checks, program
 * loading, the instructions in order on one copy-on-write overlay, then the rent-state check.
 *
 * `landable` tells whether a node would put the transaction in a block when sent without
 * preflight: failures before fee collection (blockhash, fee payer, compute budget) are dropped;
 * failures after it (missing program, instruction error, rent) land with the fee charged and
 * nothing else changed. Landing a failed load with its fee follows Agave's fee-only transactions.
 */
export interface ExecutionResult {
  readonly err: TransactionError | null
  readonly landable: boolean
  readonly logs: ReadonlyArray<string>
  readonly unitsConsumed: number
  readonly fee: bigint
  readonly computeUnitPrice: bigint
  readonly returnData: { readonly programId: string; readonly data: Uint8Array } | undefined
  /** Account states to commit if the transaction lands (only the fee debit when it failed). */
  readonly changes: ReadonlyArray<readonly [string, AccountState]>
  /** Reads the post-execution state (the pre-state plus `changes`). */
  readonly readAfter: (address: string) => Readonly<AccountState>
  readonly preBalances: ReadonlyArray<bigint>
  readonly postBalances: ReadonlyArray<bigint>
  readonly preTokenBalances: ReadonlyArray<TokenBalance>
  readonly postTokenBalances: ReadonlyArray<TokenBalance>
}

export interface ExecutionOptions {
  /** Skip the recent-blockhash check (simulateTransaction's replaceRecentBlockhash). */
  readonly ignoreBlockhash?: boolean
}

const SYSVAR_PREFIX = "Sysvar"

export const executeMessage = (
  ledger: Ledger,
  programs: ProgramRegistry,
  message: DecodedMessage,
  options: ExecutionOptions = {}
): ExecutionResult => {
  const keys = message.accountKeys
  const feePayer = keys[0]!
  const baseRead = (address: string) => ledger.getAccount(address)
  const overlay = new AccountOverlay(baseRead)
  const preBalances = keys.map((key) => overlay.read(key).lamports)
  const logs = new LogCollector()
  const finish = (
    err: TransactionError | null,
    landable: boolean,
    fee: bigint,
    computeUnitPrice: bigint,
    unitsConsumed: number,
    returnData: ExecutionResult["returnData"],
    changes: ReadonlyArray<readonly [string, AccountState]>
  ): ExecutionResult => {
    const changed = new Map(changes)
    const readAfter = (address: string): Readonly<AccountState> => changed.get(address) ?? overlay.readBase(address)
    return {
      err,
      landable,
      logs: logs.lines,
      unitsConsumed,
      fee,
      computeUnitPrice,
      returnData,
      changes,
      readAfter,
      preBalances,
      postBalances: keys.map((key) => readAfter(key).lamports),
      preTokenBalances: tokenBalancesOf(keys, baseRead),
      postTokenBalances: tokenBalancesOf(keys, readAfter)
    }
  }
  const rejected = (err: TransactionError): ExecutionResult => finish(err, false, 0n, 0n, 0, undefined, [])

  if (!options.ignoreBlockhash && !ledger.clock.isBlockhashValid(message.recentBlockhash)) return rejected("BlockhashNotFound")
  if (message.usesLookupTables) return rejected("AddressLookupTableNotFound")

  const instructions: Instruction[] = message.instructions.map((compiled) => {
    const programId = keys[compiled.programIndex]!
    return {
      programId,
      accounts: compiled.accountIndexes.map((index) => ({
        address: keys[index]!,
        isSigner: isSignerIndex(message, index),
        isWritable: isWritableIndex(message, index) && !isDemoted(keys[index]!, programs)
      })),
      data: compiled.data
    }
  })

  const budget = readComputeBudget(instructions, (programId) => programs.get(programId)?.kind === "builtin")
  if ("kind" in budget) {
    return rejected(
      budget.kind === "duplicate"
        ? { DuplicateInstruction: budget.instructionIndex }
        : { InstructionError: [budget.instructionIndex, "InvalidInstructionData"] }
    )
  }
  const fee = LAMPORTS_PER_SIGNATURE * BigInt(message.header.numRequiredSignatures) + prioritizationFee(budget)

  const payer = ledger.getAccount(feePayer)
  if (payer === undefined) return rejected("AccountNotFound")
  if (payer.owner !== SYSTEM_PROGRAM_ID || payer.data.length > 0) return rejected("InvalidAccountForFee")
  const payerAfterFee = payer.lamports - fee
  if (payerAfterFee < 0n || (payerAfterFee > 0n && payerAfterFee < minimumBalanceForRentExemption(0))) return rejected("InsufficientFundsForFee")

  const feeOnly: ReadonlyArray<readonly [string, AccountState]> = [[feePayer, { ...payer, lamports: payerAfterFee }]]
  const landedFailure = (err: TransactionError, unitsConsumed: number): ExecutionResult =>
    finish(err, true, fee, budget.unitPrice, unitsConsumed, undefined, feeOnly)

  for (const instruction of instructions) {
    if (programs.has(instruction.programId)) continue
    const account = ledger.getAccount(instruction.programId)
    return landedFailure(account === undefined ? "ProgramAccountNotFound" : "InvalidProgramForExecution", 0)
  }

  overlay.setLamports(feePayer, payerAfterFee)
  const meter = new ComputeMeter(budget.unitLimit)
  const slot = ledger.slot
  const environment: ExecutionEnvironment = {
    overlay,
    programs,
    clock: { slot, unixTimestamp: ledger.clock.blockTime(slot) },
    logs,
    meter,
    returnData: undefined,
    callStack: []
  }
  for (let index = 0; index < instructions.length; index++) {
    const instruction = instructions[index]!
    try {
      executeInstruction(environment, instruction, privilegesOf(instruction))
    } catch (thrown) {
      if (!(thrown instanceof InstructionFailure)) throw thrown
      return landedFailure({ InstructionError: [index, thrown.error] }, budget.unitLimit - meter.remaining)
    }
  }

  const unitsConsumed = budget.unitLimit - meter.remaining
  for (let index = 0; index < keys.length; index++) {
    if (!isWritableIndex(message, index)) continue
    if (!rentStateAllowed(overlay.readBase(keys[index]!), overlay.read(keys[index]!))) {
      return landedFailure({ InsufficientFundsForRent: { account_index: index } }, unitsConsumed)
    }
  }
  return finish(null, true, fee, budget.unitPrice, unitsConsumed, environment.returnData, Array.from(overlay.changes()))
}

/** Reserved accounts (builtin programs, sysvars) are never writable, as the runtime demotes them. */
const isDemoted = (address: string, programs: ProgramRegistry): boolean => programs.has(address) || address.startsWith(SYSVAR_PREFIX)

/**
 * Solana's rent rule: an account may end a transaction empty or rent-exempt; it may stay
 * rent-paying only if it already was, with the same size and not more lamports.
 */
const rentStateAllowed = (before: Readonly<AccountState>, after: Readonly<AccountState>): boolean => {
  if (after.lamports === 0n || after.lamports >= minimumBalanceForRentExemption(after.data.length)) return true
  const wasRentPaying = before.lamports > 0n && before.lamports < minimumBalanceForRentExemption(before.data.length)
  return wasRentPaying && before.data.length === after.data.length && after.lamports <= before.lamports
}
