import { createHash } from "node:crypto"
import { encodeBase58 } from "../../ntbundle/base58.ts"
import { prioritizationFee, readComputeBudget } from "../programs/computeBudget.ts"
import { LAMPORTS_PER_SIGNATURE, minimumBalanceForRentExemption } from "../programs/ids.ts"
import { decodeMessage } from "../runtime/message.ts"
import { contextSlot, FEATURE_SET, SOLANA_CORE_VERSION, withContext, type RpcMethod } from "./environment.ts"
import { readAddress, readConfig, readContextConfig, readOptionalInteger, requireParam } from "./params.ts"
import { BLOCK_NOT_AVAILABLE, invalidParams, paramError, RpcError } from "./rpcError.ts"

/** Cluster, slot, blockhash and fee methods. */
const SLOTS_PER_EPOCH = 432_000

/** A stable pseudo identity for the single "validator". */
const identityOf = (genesisHash: string): string => encodeBase58(createHash("sha256").update(`sandbox-identity:${genesisHash}`).digest())

const readMessageBytes = (value: unknown): Uint8Array => {
  if (typeof value !== "string" || !/^[A-Za-z0-9+/]*={0,2}$/.test(value)) throw invalidParams("invalid base64 message")
  return new Uint8Array(Buffer.from(value, "base64"))
}

export const chainMethods: Record<string, RpcMethod> = {
  getHealth: () => "ok",
  getVersion: () => ({ "feature-set": FEATURE_SET, "solana-core": SOLANA_CORE_VERSION }),
  getGenesisHash: (_params, { control }) => (control.info() as { readonly genesisHash: string }).genesisHash,
  getIdentity: (_params, { control }) => ({ identity: identityOf((control.info() as { readonly genesisHash: string }).genesisHash) }),

  getSlot: (params, environment) => contextSlot(environment, readContextConfig(readConfig(params[0]))),
  getBlockHeight: (params, environment) =>
    environment.ledger.clock.blockHeight(contextSlot(environment, readContextConfig(readConfig(params[0])))),
  getTransactionCount: (params, environment) => {
    contextSlot(environment, readContextConfig(readConfig(params[0])))
    return environment.ledger.transactions.size
  },
  getFirstAvailableBlock: (_params, { ledger }) => ledger.clock.firstSlot,
  getEpochInfo: (params, environment) => {
    const slot = contextSlot(environment, readContextConfig(readConfig(params[0])))
    return {
      absoluteSlot: slot,
      blockHeight: environment.ledger.clock.blockHeight(slot),
      epoch: Math.floor(slot / SLOTS_PER_EPOCH),
      slotIndex: slot % SLOTS_PER_EPOCH,
      slotsInEpoch: SLOTS_PER_EPOCH,
      transactionCount: environment.ledger.transactions.size
    }
  },
  getBlockTime: (params, { ledger }) => {
    const slot = requireParam(params, 0, "a slot")
    if (typeof slot !== "number" || !Number.isSafeInteger(slot) || slot < 0) throw invalidParams("invalid slot")
    if (!ledger.clock.hasBlock(slot)) throw new RpcError(BLOCK_NOT_AVAILABLE, `Block not available for slot ${slot}`)
    return ledger.clock.blockTime(slot)
  },
  getLatestBlockhash: (params, environment) => {
    const slot = contextSlot(environment, readContextConfig(readConfig(params[0])))
    const { clock } = environment.ledger
    return withContext(slot, { blockhash: clock.blockhash(slot), lastValidBlockHeight: clock.lastValidBlockHeight(slot) })
  },
  isBlockhashValid: (params, environment) => {
    const blockhash = requireParam(params, 0, "a blockhash")
    if (typeof blockhash !== "string") throw invalidParams("invalid blockhash")
    const slot = contextSlot(environment, readContextConfig(readConfig(params[1])))
    return withContext(slot, environment.ledger.clock.isBlockhashValid(blockhash))
  },
  getMinimumBalanceForRentExemption: (params) => {
    const size = readOptionalInteger(requireParam(params, 0, "a data length"), "data length")!
    return minimumBalanceForRentExemption(size)
  },
  getFeeForMessage: (params, environment) => {
    const message = decodeMessage(readMessageBytes(requireParam(params, 0, "a base64 message")))
    if ("kind" in message) throw invalidParams(message.kind === "malformed" ? message.reason : message.error)
    const slot = contextSlot(environment, readContextConfig(readConfig(params[1])))
    if (!environment.ledger.clock.isBlockhashValid(message.recentBlockhash)) return withContext(slot, null)
    const instructions = message.instructions.map((instruction) => ({
      programId: message.accountKeys[instruction.programIndex]!,
      data: instruction.data
    }))
    const budget = readComputeBudget(instructions, (programId) => environment.programs.get(programId)?.kind === "builtin")
    if ("kind" in budget) return withContext(slot, null)
    return withContext(slot, LAMPORTS_PER_SIGNATURE * BigInt(message.header.numRequiredSignatures) + prioritizationFee(budget))
  },
  getRecentPrioritizationFees: (params, { ledger }) => {
    const addresses = params[0]
    if (addresses !== undefined && addresses !== null) {
      if (!Array.isArray(addresses)) throw invalidParams("invalid type: expected an array of addresses")
      if (addresses.length > 128) throw paramError("Too many inputs provided; max 128")
      addresses.forEach(readAddress)
    }
    return ledger.recentPrioritizationFees()
  }
}

