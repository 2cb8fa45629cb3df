import type { InstructionFailure } from "./errors.ts"

/**
 * The program plug-in interface. A program is a handler keyed by its program id; the runtime
 * calls it once per instruction (top level or cross-program invocation) with an
 * InvocationContext. The handler reads and writes accounts only through the context, which
 * enforces Solana's rules (only the owner changes data or debits lamports, only writable
 * accounts change, signer privileges), logs as the real runtime does, and meters compute.
 *
 * A handler fails the instruction by throwing an InstructionFailure (see `fail`, `customError`)
 * or returning one; any other exception is treated as a program panic (ProgramFailedToComplete).
 * A failed instruction fails the whole transaction and nothing it or earlier instructions wrote
 * is kept (the fee is still charged when the transaction lands without preflight).
 */
export interface AccountMeta {
  readonly address: string
  readonly isSigner: boolean
  readonly isWritable: boolean
}

export interface Instruction {
  readonly programId: string
  readonly accounts: ReadonlyArray<AccountMeta>
  readonly data: Uint8Array
}

/** An account as the current instruction sees it (including earlier writes in this transaction). */
export interface AccountView {
  readonly address: string
  readonly owner: string
  readonly lamports: bigint
  /** Read-only: change data with `dataMut` or `setData`. */
  readonly data: Uint8Array
  readonly executable: boolean
}

export interface ClockView {
  readonly slot: number
  /** Unix seconds, as the Clock sysvar's unix_timestamp. */
  readonly unixTimestamp: number
}

export interface InvocationContext {
  readonly programId: string
  readonly instruction: Instruction
  readonly clock: ClockView
  /** 1 for a top-level instruction, 2+ inside cross-program invocations. */
  readonly stackHeight: number

  /** The instruction's account at `index` with its meta (NotEnoughAccountKeys when absent). */
  accountAt(index: number): AccountView & { readonly isSigner: boolean; readonly isWritable: boolean }
  /** An account passed to this instruction (MissingAccount otherwise); absent ones read as empty System accounts. */
  account(address: string): AccountView
  isSigner(address: string): boolean
  isWritable(address: string): boolean
  /** Fails with MissingRequiredSignature unless `address` signed (directly or as a PDA of the caller). */
  requireSigner(address: string): void

  /** This transaction's private copy of the account's data, to edit in place (owner + writable only). */
  dataMut(address: string): Uint8Array
  /** Replaces the account's data, resizing it if needed (owner + writable only). */
  setData(address: string, data: Uint8Array): void
  /** Debits need ownership, credits need only writability; each instruction must keep the lamport sum. */
  setLamports(address: string, lamports: bigint): void
  /** Moves lamports between two accounts of this instruction (same rules as setLamports). */
  transferLamports(from: string, to: string, lamports: bigint): void
  /** Gives the account to `newOwner` (current owner only; data must be empty or zeroed). */
  assign(address: string, newOwner: string): void

  /** `Program log: <message>` */
  log(message: string): void
  /** `Program data: <base64> <base64> ...` (how Anchor events are logged). */
  emitData(...chunks: ReadonlyArray<Uint8Array>): void
  /** `Program return: <program id> <base64>` */
  setReturnData(data: Uint8Array): void
  consumeComputeUnits(units: number): void
  /**
   * Cross-program invocation. `signerSeeds` lists seed sets whose PDAs (of this program) sign.
   * A failure of the callee fails this instruction too, as on Solana (it cannot be caught).
   */
  invoke(instruction: Instruction, signerSeeds?: ReadonlyArray<ReadonlyArray<Uint8Array>>): void
}

export type ProgramKind = "builtin" | "bpf"

export interface ProgramHandler {
  readonly programId: string
  readonly name: string
  /**
   * "builtin" programs (System, Compute Budget) log no `consumed` line, as native programs;
   * "bpf" programs log `Program <id> consumed N of M compute units`.
   */
  readonly kind: ProgramKind
  /** Charged before the handler runs; handlers may charge more with consumeComputeUnits. */
  readonly baseComputeUnits: number
  readonly execute: (context: InvocationContext) => void | InstructionFailure
}

/** Loader that owns a program's account on the ledger (for getAccountInfo of a program id). */
export const NATIVE_LOADER_ID = "NativeLoader1111111111111111111111111111111"
export const BPF_LOADER_ID = "BPFLoader2111111111111111111111111111111111"
export const BPF_UPGRADEABLE_LOADER_ID = "BPFLoaderUpgradeab1e11111111111111111111111"

export class ProgramRegistry {
  private readonly handlers = new Map<string, ProgramHandler>()

  register(handler: ProgramHandler): void {
    this.handlers.set(handler.programId, handler)
  }

  get(programId: string): ProgramHandler | undefined {
    return this.handlers.get(programId)
  }

  has(programId: string): boolean {
    return this.handlers.has(programId)
  }

  list(): ReadonlyArray<ProgramHandler> {
    return Array.from(this.handlers.values())
  }
}
