/**
 * The sandbox chain: a local Solana cluster speaking the real JSON-RPC and PubSub wire formats.
 * See sandbox.ts (start it), chain.ts (the chain without network), runtime/program.ts (the
 * program plug-in interface) and control.ts (the sandbox_* methods).
 */
export { SandboxChain, type ChainOptions } from "./chain.ts"
export { startSandbox, createSandboxChain, type SandboxHandle, type SandboxOptions } from "./sandbox.ts"
export { Sandbox, SandboxLive, SandboxStartError, sandboxScoped } from "./layer.ts"
export { SlotScheduler, type SlotTask } from "./scheduler.ts"
export { WalletRegistry, type Wallet, type WalletRole } from "./wallets.ts"
export { Faults, type FaultState } from "./faults.ts"
export { createRandom, type Random, type Seed } from "./crypto/random.ts"
export {
  deterministicKeypair,
  generateKeypair,
  keypairFromSecretKey,
  keypairFromSeed,
  secretKeyToBase58,
  verifySignature,
  addressToBytes,
  type Keypair
} from "./crypto/keypair.ts"
export { createProgramAddress, findProgramAddress } from "./crypto/pda.ts"
export { encodeBase58, decodeBase58 } from "./codec/base58.ts"
export { Ledger, type AccountState, type AccountWrite, type LedgerEvent } from "./ledger/ledger.ts"
export type { AccountRecord } from "./ledger/account-store.ts"
export type { TransactionRecord, TokenBalance } from "./ledger/transaction-store.ts"
export { MAX_PROCESSING_AGE, type Commitment } from "./ledger/chain-clock.ts"
export {
  ProgramRegistry,
  BPF_LOADER_ID,
  BPF_UPGRADEABLE_LOADER_ID,
  NATIVE_LOADER_ID,
  type AccountMeta,
  type AccountView,
  type ClockView,
  type Instruction,
  type InvocationContext,
  type ProgramHandler,
  type ProgramKind
} from "./runtime/program.ts"
export {
  customError,
  fail,
  failWithRuntimeLog,
  InstructionFailure,
  instructionErrorText,
  transactionErrorText,
  type InstructionError,
  type InstructionErrorName,
  type TransactionError
} from "./runtime/errors.ts"
export type { SendOutcome, SimulateOutcome, SubmitRequest } from "./runtime/processor.ts"
export type { ExecutionResult } from "./runtime/executor.ts"
export * as ids from "./programs/ids.ts"
export * as instructions from "./programs/instructions.ts"
export * as tokenLayout from "./programs/token-layout.ts"
