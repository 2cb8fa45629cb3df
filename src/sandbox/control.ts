import { toBase64 } from "./codec/bytes.ts"
import { JsonStream, type JsonValue } from "./codec/json.ts"
import type { SandboxChain } from "./chain.ts"
import type { Faults } from "./faults.ts"
import { minimumBalanceForRentExemption } from "./programs/ids.ts"
import { transactionErrorText } from "./runtime/errors.ts"
import type { SendOutcome } from "./runtime/processor.ts"
import type { SandboxControl } from "./rpc/environment.ts"
import { isRecord, readAddress, readAmount, readOptionalBoolean, readOptionalInteger, type Params } from "./rpc/params.ts"
import { paramError, RpcError, SEND_TRANSACTION_PREFLIGHT_FAILURE } from "./rpc/rpcError.ts"

/**
 * The sandbox_* methods (a contract for tests and tools; params follow Solana's convention: a
 * JSON array whose single element is the object shown):
 *   sandbox_info -> {programId, rpcUrl, wsUrl, slot, blockHeight, seed, slotMs, genesisHash, clock, ...}
 *   sandbox_snapshot [{programId?}] -> {slot, accounts:[{address, owner, lamports, data:[base64,"base64"]}]}
 *   sandbox_step [{slots}] -> {slot, blockHeight}
 *   sandbox_airdrop [{owner, mint?, amount}] -> {signature, address, amount, slot}
 *   sandbox_setAccount [{address, owner, data, lamports?, executable?}] -> {slot}
 *   sandbox_wallets -> [{address, role, secretKey}]
 *   sandbox_fault [{kind, ...}] -> the fault state (see faults.ts)
 */
export interface ControlContext {
  readonly chain: SandboxChain
  readonly faults: Faults
  readonly urls: () => { readonly rpcUrl: string; readonly wsUrl: string }
  readonly clockMode: "auto" | "manual"
  /** Advances the clock (and runs slot tasks); returns the tip. */
  readonly step: (slots: number) => number
}

const MAX_STEP_SLOTS = 1_000_000

const firstObject = (params: Params, name: string): Readonly<Record<string, unknown>> => {
  const value = params[0] ?? {}
  if (!isRecord(value)) throw paramError(`${name} expects [{...}]`)
  return value
}

const readData = (value: unknown): Uint8Array => {
  const text = Array.isArray(value) && value[1] === "base64" ? value[0] : value
  if (typeof text !== "string" || !/^[A-Za-z0-9+/]*={0,2}$/.test(text)) throw paramError('data must be a base64 string or [base64, "base64"]')
  return new Uint8Array(Buffer.from(text, "base64"))
}

const landedSignature = (outcome: SendOutcome): string => {
  if (outcome.kind === "landed" && outcome.result.err === null) return outcome.signature
  const err = "result" in outcome && outcome.result !== undefined ? outcome.result.err : null
  throw new RpcError(SEND_TRANSACTION_PREFLIGHT_FAILURE, `sandbox faucet transaction failed: ${err === null ? outcome.kind : transactionErrorText(err)}`, {
    err,
    logs: "result" in outcome && outcome.result !== undefined ? outcome.result.logs : []
  })
}

export const createControl = (context: ControlContext): SandboxControl => {
  const { chain, faults } = context
  const { ledger } = chain
  return {
    info: () => ({
      programId: chain.programId,
      ...context.urls(),
      slot: ledger.slot,
      blockHeight: ledger.clock.blockHeight(),
      finalizedSlot: ledger.clock.finalizedSlot,
      firstSlot: ledger.clock.firstSlot,
      seed: typeof chain.seed === "number" ? chain.seed : String(chain.seed),
      slotMs: chain.slotMs,
      clock: context.clockMode,
      genesisHash: chain.genesisHash,
      faucet: chain.faucet.address
    }),
    snapshot: (params) => {
      const config = firstObject(params, "sandbox_snapshot")
      const owner = config["programId"] === undefined ? chain.programId : readAddress(config["programId"])
      const slot = ledger.slot
      const accounts = ledger.accounts.snapshotOwnedBy(owner)
      return new JsonStream(function* () {
        yield `{"slot":${slot},"accounts":[`
        for (let index = 0; index < accounts.length; index++) {
          const [address, record] = accounts[index]!
          yield `${index === 0 ? "" : ","}{"address":"${address}","owner":"${record.owner}","lamports":${record.lamports},"data":["${toBase64(record.data)}","base64"]}`
        }
        yield "]}"
      })
    },
    step: (params) => {
      const slots = readOptionalInteger(firstObject(params, "sandbox_step")["slots"], "slots") ?? 1
      if (slots > MAX_STEP_SLOTS) throw paramError(`slots must be at most ${MAX_STEP_SLOTS}`)
      const slot = context.step(slots)
      return { slot, blockHeight: ledger.clock.blockHeight(slot) }
    },
    airdrop: (params) => {
      const config = firstObject(params, "sandbox_airdrop")
      const owner = readAddress(config["owner"])
      const amount = readAmount(config["amount"], "amount")
      let signature: string
      let address = owner
      if (config["mint"] === undefined || config["mint"] === null) signature = landedSignature(chain.airdropSol(owner, amount))
      else {
        const mint = readAddress(config["mint"])
        let outcome: ReturnType<SandboxChain["airdropTokens"]>
        try {
          outcome = chain.airdropTokens(owner, mint, amount)
        } catch (error) {
          throw paramError(error instanceof Error ? error.message : String(error))
        }
        signature = landedSignature(outcome)
        address = outcome.tokenAccount
      }
      return { signature, address, amount: amount.toString(), slot: ledger.slot }
    },
    requestAirdrop: (address, lamports) => landedSignature(chain.airdropSol(address, lamports)),
    setAccount: (params) => {
      const config = firstObject(params, "sandbox_setAccount")
      const address = readAddress(config["address"])
      const owner = readAddress(config["owner"])
      const data = readData(config["data"] ?? "")
      const lamports = config["lamports"] === undefined ? minimumBalanceForRentExemption(data.length) : readAmount(config["lamports"], "lamports")
      chain.setAccount(address, { owner, lamports, data, executable: readOptionalBoolean(config["executable"], "executable") === true })
      return { slot: ledger.slot }
    },
    wallets: () => chain.wallets.toJson() as unknown as JsonValue,
    fault: (params) => faults.apply(params[0])
  }
}
