/**
 * The sandbox chain: a local Solana cluster speaking the real JSON-RPC and PubSub wire formats.
 * Start it with `startSandbox` (or the `SandboxLive` layer); `chain.ts` is the chain without
 * its network face; `runtime/program.ts` is the program plug-in interface; `control.ts` lists
 * the sandbox_* methods; `faults.ts` the injectable faults.
 *
 * Where it approximates a real node (each module says more):
 * - One validator, no forks, no skipped slots; slot and block height differ by a constant
 *   (first slot 1000 = height 0). Finalized trails the tip by 32 slots; processed = confirmed.
 * - Account reads answer the tip's state with the tip's slot whatever the commitment (a node
 *   reads a finalized bank for `finalized`). Subscriptions do honour commitment: finalized
 *   subscribers are notified once the slot is finalized.
 * - A transaction lands at the current slot the moment it is sent (no leader, no forwarding);
 *   notifications about it leave at the next microtask, stamped with that slot. A transaction
 *   landing after a read at the same slot is therefore possible (as at processed commitment on
 *   a node): a consumer replaying buffered notifications should apply those whose slot is
 *   >= the snapshot's, not only >.
 * - Only accounts whose state changed are notified (a node re-announces every writable account
 *   it stores). A closed account is not announced to program subscribers (as on a node).
 * - Without preflight: bad signatures, stale blockhashes and unpayable fees are dropped; load and
 *   execution failures land with the fee (Agave's fee-only transactions).
 * - getTransaction: no inner instructions (CPIs show in the logs), no rewards, no jsonParsed.
 *   Address lookup tables are not supported (AddressLookupTableNotFound).
 * - Compute units are fixed per instruction kind; a CPI may call any registered program.
 * - SPL Token without multisig, wrapped SOL or freezing; ATA without RecoverNested.
 * - signatureSubscribe's enableReceivedNotification is accepted but never sends "received".
 * - Transactions are kept up to a retention count (oldest forgotten first).
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
export { createProgramAddress, findProgramAddress } from "../ntbundle/programAddress.ts"
export { encodeBase58, decodeBase58 } from "../ntbundle/base58.ts"
export { Ledger, type AccountState, type AccountWrite, type LedgerEvent } from "./ledger/ledger.ts"
export type { AccountRecord } from "./ledger/accountStore.ts"
export type { TransactionRecord, TokenBalance } from "./ledger/transactionStore.ts"
export { MAX_PROCESSING_AGE, type Commitment } from "./ledger/chainClock.ts"
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
export * as tokenLayout from "./programs/tokenLayout.ts"
