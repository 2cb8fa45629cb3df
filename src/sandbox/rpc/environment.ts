import type { JsonStream, JsonValue } from "../codec/json.ts"
import type { Ledger } from "../ledger/ledger.ts"
import type { Commitment } from "../ledger/chainClock.ts"
import { decodeMint } from "../programs/tokenLayout.ts"
import type { ProgramRegistry } from "../runtime/program.ts"
import type { TransactionProcessor } from "../runtime/processor.ts"
import type { MintDecimals } from "./accountJson.ts"
import type { ContextConfig, Params } from "./params.ts"
import { MIN_CONTEXT_SLOT_NOT_REACHED, RpcError } from "./rpcError.ts"

/** What RPC methods see of the sandbox. `control` serves the sandbox_* methods. */
export interface RpcEnvironment {
  readonly ledger: Ledger
  readonly programs: ProgramRegistry
  readonly processor: TransactionProcessor
  readonly control: SandboxControl
}

export interface SandboxControl {
  readonly info: () => JsonValue
  readonly snapshot: (params: Params) => JsonValue | JsonStream
  readonly step: (params: Params) => JsonValue
  readonly airdrop: (params: Params) => JsonValue
  readonly requestAirdrop: (address: string, lamports: bigint) => string
  readonly setAccount: (params: Params) => JsonValue
  readonly wallets: () => JsonValue
  readonly fault: (params: Params) => JsonValue
}

export type RpcMethod = (params: Params, environment: RpcEnvironment) => JsonValue | JsonStream

/** Solana's node version the sandbox answers as (getVersion, context.apiVersion). */
export const SOLANA_CORE_VERSION = "2.2.14"
export const FEATURE_SET = 3_294_202_862

export const withContext = (slot: number, value: JsonValue): JsonValue => ({ context: { apiVersion: SOLANA_CORE_VERSION, slot }, value })

/** The slot a read answers at, refusing when the caller needs a later one (minContextSlot). */
export const contextSlot = (environment: RpcEnvironment, config: ContextConfig): number => {
  const slot = environment.ledger.clock.slotFor(config.commitment)
  if (config.minContextSlot !== undefined && slot < config.minContextSlot) {
    throw new RpcError(MIN_CONTEXT_SLOT_NOT_REACHED, "Minimum context slot has not been reached", { contextSlot: slot })
  }
  return slot
}

export const slotAt = (environment: RpcEnvironment, commitment: Commitment): number => environment.ledger.clock.slotFor(commitment)

export const mintDecimalsFrom = (ledger: Ledger): MintDecimals => (mint) => {
  const account = ledger.getAccount(mint)
  return account === undefined ? undefined : decodeMint(account.data)?.decimals
}
