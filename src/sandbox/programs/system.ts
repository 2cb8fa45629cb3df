import { readAddress, readU32, readU64 } from "../codec/bytes.ts"
import { customError, fail, failWithRuntimeLog } from "../runtime/errors.ts"
import type { InvocationContext, ProgramHandler } from "../runtime/program.ts"
import { SYSTEM_PROGRAM_ID } from "./ids.ts"

/**
 * The System program: CreateAccount, Assign, Transfer, Allocate, with the native program's
 * checks, error codes (SystemError as custom codes) and bare log lines. Other instructions
 * (nonces, seeds) fail with InvalidInstructionData.
 */
const ACCOUNT_ALREADY_IN_USE = customError(0)
const RESULT_WITH_NEGATIVE_LAMPORTS = customError(1)
const INVALID_ACCOUNT_DATA_LENGTH = customError(3)
const MAX_PERMITTED_DATA_LENGTH = 10n * 1024n * 1024n

const debugAddress = (address: string): string => `Address { address: ${address}, base: None }`

const transfer = (context: InvocationContext, from: string, to: string, lamports: bigint): void => {
  if (!context.isSigner(from)) failWithRuntimeLog("MissingRequiredSignature", `Transfer: \`from\` account ${from} must sign`)
  const source = context.account(from)
  if (source.data.length > 0) failWithRuntimeLog("InvalidArgument", "Transfer: `from` must not carry data")
  if (lamports > source.lamports) {
    failWithRuntimeLog(RESULT_WITH_NEGATIVE_LAMPORTS, `Transfer: insufficient lamports ${source.lamports}, need ${lamports}`)
  }
  context.transferLamports(from, to, lamports)
}

const allocate = (context: InvocationContext, address: string, space: bigint): void => {
  if (!context.isSigner(address)) failWithRuntimeLog("MissingRequiredSignature", `Allocate: 'to' account ${debugAddress(address)} must sign`)
  const account = context.account(address)
  if (account.data.length > 0 || account.owner !== SYSTEM_PROGRAM_ID) {
    failWithRuntimeLog(ACCOUNT_ALREADY_IN_USE, `Allocate: account ${debugAddress(address)} already in use`)
  }
  if (space > MAX_PERMITTED_DATA_LENGTH) {
    failWithRuntimeLog(INVALID_ACCOUNT_DATA_LENGTH, `Allocate: requested ${space}, max allowed ${MAX_PERMITTED_DATA_LENGTH}`)
  }
  context.setData(address, new Uint8Array(Number(space)))
}

const assign = (context: InvocationContext, address: string, owner: string): void => {
  if (context.account(address).owner === owner) return
  if (!context.isSigner(address)) failWithRuntimeLog("MissingRequiredSignature", `Assign: account ${debugAddress(address)} must sign`)
  context.assign(address, owner)
}

const execute = (context: InvocationContext): void => {
  const data = context.instruction.data
  if (data.length < 4) fail("InvalidInstructionData")
  const account = (index: number): string => context.accountAt(index).address
  switch (readU32(data, 0)) {
    case 0: {
      if (data.length < 52) fail("InvalidInstructionData")
      const [from, to] = [account(0), account(1)]
      const lamports = readU64(data, 4)
      const space = readU64(data, 12)
      const owner = readAddress(data, 20)
      if (context.account(to).lamports > 0n) {
        failWithRuntimeLog(ACCOUNT_ALREADY_IN_USE, `Create Account: account ${debugAddress(to)} already in use`)
      }
      allocate(context, to, space)
      assign(context, to, owner)
      transfer(context, from, to, lamports)
      return
    }
    case 1:
      if (data.length < 36) fail("InvalidInstructionData")
      return assign(context, account(0), readAddress(data, 4))
    case 2:
      if (data.length < 12) fail("InvalidInstructionData")
      return transfer(context, account(0), account(1), readU64(data, 4))
    case 8:
      if (data.length < 12) fail("InvalidInstructionData")
      return allocate(context, account(0), readU64(data, 4))
    default:
      fail("InvalidInstructionData")
  }
}

export const systemProgram: ProgramHandler = {
  programId: SYSTEM_PROGRAM_ID,
  name: "system",
  kind: "builtin",
  baseComputeUnits: 150,
  execute
}
