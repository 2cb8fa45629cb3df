import { createProgramAddress } from "../../ntbundle/programAddress.ts"
import { fail, failWithRuntimeLog, InstructionFailure, instructionErrorText, type InstructionError } from "./errors.ts"
import type { AccountOverlay } from "./overlay.ts"
import type { AccountView, ClockView, Instruction, InvocationContext, ProgramRegistry } from "./program.ts"

/**
 * Runs one instruction (and, through `invoke`, its cross-program invocations) against the
 * transaction's overlay, with the runtime's privilege rules and log lines.
 *
 * Approximations: a CPI may call any registered program without the program account being among
 * the caller's accounts; data may grow by any amount per instruction (up to 10 MiB); compute
 * units are whatever the handlers charge (fixed costs per instruction kind, no per-byte model).
 */
export const MAX_INVOKE_DEPTH = 5
const MAX_ACCOUNT_DATA_LENGTH = 10 * 1024 * 1024
const LOG_BYTES_LIMIT = 10_000
const U64_MAX = 2n ** 64n - 1n

export class LogCollector {
  readonly lines: string[] = []
  private bytes = 0
  private truncated = false

  push(line: string): void {
    if (this.truncated) return
    this.bytes += line.length
    if (this.bytes > LOG_BYTES_LIMIT) {
      this.truncated = true
      this.lines.push("Log truncated")
      return
    }
    this.lines.push(line)
  }
}

export class ComputeMeter {
  constructor(public remaining: number) {}

  consume(units: number): void {
    if (units > this.remaining) {
      this.remaining = 0
      fail("ComputationalBudgetExceeded")
    }
    this.remaining -= units
  }
}

export interface ExecutionEnvironment {
  readonly overlay: AccountOverlay
  readonly programs: ProgramRegistry
  readonly clock: ClockView
  readonly logs: LogCollector
  readonly meter: ComputeMeter
  returnData: { readonly programId: string; readonly data: Uint8Array } | undefined
  readonly callStack: string[]
}

interface Privileges {
  isSigner: boolean
  isWritable: boolean
}

/** Executes `instruction` with the given per-account privileges; throws InstructionFailure on failure. */
export const executeInstruction = (
  environment: ExecutionEnvironment,
  instruction: Instruction,
  privileges: ReadonlyMap<string, Privileges>
): void => {
  const { programs, logs, meter, callStack } = environment
  const programId = instruction.programId
  const handler = programs.get(programId)
  if (handler === undefined) fail("UnsupportedProgramId")
  if (callStack.length >= MAX_INVOKE_DEPTH) fail("CallDepth")
  if (callStack.includes(programId) && callStack[callStack.length - 1] !== programId) fail("ReentrancyNotAllowed")
  const stackHeight = callStack.length + 1
  logs.push(invokeLine(programId, stackHeight))
  callStack.push(programId)
  const budgetAtStart = meter.remaining
  const lamportsBefore = lamportSum(environment, privileges)
  try {
    meter.consume(handler!.baseComputeUnits)
    const returned = handler!.execute(new Invocation(environment, instruction, privileges, stackHeight))
    if (returned instanceof InstructionFailure) throw returned
    if (lamportSum(environment, privileges) !== lamportsBefore) fail("UnbalancedInstruction")
  } catch (thrown) {
    const failure = asFailure(thrown, logs)
    if (handler!.kind === "bpf") logs.push(`Program ${programId} consumed ${budgetAtStart - meter.remaining} of ${budgetAtStart} compute units`)
    logs.push(`Program ${programId} failed: ${instructionErrorText(failure.error)}`)
    // The failure's own log line is written once, by the frame that raised it; callers up the
    // stack log only their own `failed` line with the same error, as on Solana.
    throw new InstructionFailure(failure.error)
  } finally {
    callStack.pop()
  }
  if (handler!.kind === "bpf") logs.push(`Program ${programId} consumed ${budgetAtStart - meter.remaining} of ${budgetAtStart} compute units`)
  logs.push(successLine(programId))
}

/**
 * The fixed log lines, one string per program (and depth) made once: the same string objects line
 * after line cost no concatenation, and the transaction store pools them by an already-known hash.
 */
const invokeLines = new Map<string, string[]>()
const successLines = new Map<string, string>()

const invokeLine = (programId: string, stackHeight: number): string => {
  let lines = invokeLines.get(programId)
  if (lines === undefined) {
    lines = []
    invokeLines.set(programId, lines)
  }
  return (lines[stackHeight] ??= flat(`Program ${programId} invoke [${stackHeight}]`))
}

const successLine = (programId: string): string => {
  let line = successLines.get(programId)
  if (line === undefined) {
    line = flat(`Program ${programId} success`)
    successLines.set(programId, line)
  }
  return line
}

/** A flat copy of a concatenated string (one heap object instead of a chain of pieces). */
const flat = (text: string): string => Buffer.from(text, "utf8").toString("utf8")

const asFailure = (thrown: unknown, logs: LogCollector): InstructionFailure => {
  if (thrown instanceof InstructionFailure) {
    if (thrown.logLine !== undefined) logs.push(thrown.logLine)
    return thrown
  }
  logs.push(`Program log: panicked at '${thrown instanceof Error ? thrown.message : String(thrown)}'`)
  return new InstructionFailure("ProgramFailedToComplete")
}

const lamportSum = (environment: ExecutionEnvironment, privileges: ReadonlyMap<string, Privileges>): bigint => {
  let sum = 0n
  for (const address of privileges.keys()) sum += environment.overlay.read(address).lamports
  return sum
}

/** Merges duplicate metas (an account passed twice has the union of its privileges). */
export const privilegesOf = (instruction: Instruction): Map<string, Privileges> => {
  const privileges = new Map<string, Privileges>()
  for (const meta of instruction.accounts) {
    const known = privileges.get(meta.address)
    if (known === undefined) privileges.set(meta.address, { isSigner: meta.isSigner, isWritable: meta.isWritable })
    else {
      known.isSigner ||= meta.isSigner
      known.isWritable ||= meta.isWritable
    }
  }
  return privileges
}

const unknownAccount = (address: string): never => failWithRuntimeLog("MissingAccount", `Instruction references an unknown account ${address}`)

/**
 * The context a handler sees. A class rather than an object of closures: one is made per
 * instruction, and closures per call cost an allocation (and a `__name` call under tsx) each.
 */
class Invocation implements InvocationContext {
  readonly programId: string
  readonly clock: ClockView

  constructor(
    private readonly environment: ExecutionEnvironment,
    readonly instruction: Instruction,
    private readonly privileges: ReadonlyMap<string, Privileges>,
    readonly stackHeight: number
  ) {
    this.programId = instruction.programId
    this.clock = environment.clock
  }

  private privilegeOf(address: string): Privileges {
    return this.privileges.get(address) ?? unknownAccount(address)
  }

  private view(address: string): AccountView {
    const state = this.environment.overlay.read(address)
    return { address, owner: state.owner, lamports: state.lamports, data: state.data, executable: state.executable }
  }

  private requireWritable(address: string, error: InstructionError): void {
    const privilege = this.privilegeOf(address)
    if (!privilege.isWritable || this.environment.overlay.read(address).executable) fail(error)
  }

  private requireOwned(address: string, error: InstructionError): void {
    if (this.environment.overlay.read(address).owner !== this.programId) fail(error)
  }

  accountAt(index: number): AccountView & { readonly isSigner: boolean; readonly isWritable: boolean } {
    const meta = this.instruction.accounts[index] ?? fail("NotEnoughAccountKeys")
    const privilege = this.privilegeOf(meta.address)
    const state = this.environment.overlay.read(meta.address)
    return {
      address: meta.address,
      owner: state.owner,
      lamports: state.lamports,
      data: state.data,
      executable: state.executable,
      isSigner: privilege.isSigner,
      isWritable: privilege.isWritable
    }
  }

  account(address: string): AccountView {
    this.privilegeOf(address)
    return this.view(address)
  }

  isSigner(address: string): boolean {
    return this.privileges.get(address)?.isSigner === true
  }

  isWritable(address: string): boolean {
    return this.privileges.get(address)?.isWritable === true
  }

  requireSigner(address: string): void {
    if (this.privileges.get(address)?.isSigner !== true) fail("MissingRequiredSignature", `${address} must sign`)
  }

  dataMut(address: string): Uint8Array {
    this.requireWritable(address, "ReadonlyDataModified")
    this.requireOwned(address, "ExternalAccountDataModified")
    return this.environment.overlay.mutableData(address)
  }

  setData(address: string, data: Uint8Array): void {
    this.requireWritable(address, "ReadonlyDataModified")
    this.requireOwned(address, "ExternalAccountDataModified")
    if (data.length > MAX_ACCOUNT_DATA_LENGTH) fail("InvalidRealloc")
    this.environment.overlay.setData(address, data)
  }

  setLamports(address: string, lamports: bigint): void {
    const current = this.environment.overlay.read(address).lamports
    if (lamports === current) return
    if (lamports < 0n) fail("InsufficientFunds")
    if (lamports > U64_MAX) fail("ArithmeticOverflow")
    this.requireWritable(address, "ReadonlyLamportChange")
    if (lamports < current) this.requireOwned(address, "ExternalAccountLamportSpend")
    this.environment.overlay.setLamports(address, lamports)
  }

  transferLamports(from: string, to: string, lamports: bigint): void {
    if (lamports < 0n) fail("InvalidArgument")
    const overlay = this.environment.overlay
    const fromLamports = overlay.read(from).lamports
    if (fromLamports < lamports) fail("InsufficientFunds")
    this.setLamports(from, fromLamports - lamports)
    this.setLamports(to, overlay.read(to).lamports + lamports)
  }

  assign(address: string, newOwner: string): void {
    const current = this.environment.overlay.read(address)
    if (current.owner === newOwner) return
    this.requireWritable(address, "ModifiedProgramId")
    this.requireOwned(address, "ModifiedProgramId")
    if (current.data.some((byte) => byte !== 0)) fail("ModifiedProgramId")
    this.environment.overlay.setOwner(address, newOwner)
  }

  log(message: string): void {
    this.environment.logs.push(`Program log: ${message}`)
  }

  emitData(...chunks: ReadonlyArray<Uint8Array>): void {
    let line = "Program data: "
    for (let index = 0; index < chunks.length; index++) {
      const chunk = chunks[index]!
      line += `${index === 0 ? "" : " "}${Buffer.from(chunk.buffer, chunk.byteOffset, chunk.length).toString("base64")}`
    }
    this.environment.logs.push(line)
  }

  setReturnData(data: Uint8Array): void {
    this.environment.returnData = { programId: this.programId, data: new Uint8Array(data) }
    this.environment.logs.push(`Program return: ${this.programId} ${Buffer.from(data).toString("base64")}`)
  }

  consumeComputeUnits(units: number): void {
    this.environment.meter.consume(units)
  }

  invoke(callee: Instruction, signerSeeds: ReadonlyArray<ReadonlyArray<Uint8Array>> = []): void {
    const pdaSigners = new Set<string>()
    for (const seeds of signerSeeds) pdaSigners.add(createProgramAddress(seeds, this.programId) ?? fail("InvalidSeeds"))
    for (const meta of callee.accounts) {
      const privilege = this.privileges.get(meta.address) ?? unknownAccount(meta.address)
      if (meta.isWritable && !privilege.isWritable) failWithRuntimeLog("PrivilegeEscalation", `${meta.address}'s writable privilege escalated`)
      if (meta.isSigner && !privilege.isSigner && !pdaSigners.has(meta.address)) {
        failWithRuntimeLog("PrivilegeEscalation", `${meta.address}'s signer privilege escalated`)
      }
    }
    executeInstruction(this.environment, callee, privilegesOf(callee))
  }
}
