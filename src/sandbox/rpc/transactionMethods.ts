import { decodeBase58 } from "../../ntbundle/base58.ts"
import { toBase64 } from "../codec/bytes.ts"
import { RawJson, type JsonValue } from "../codec/json.ts"
import { transactionErrorText } from "../runtime/errors.ts"
import type { ExecutionResult } from "../runtime/executor.ts"
import type { DecodeFailure } from "../runtime/message.ts"
import { encodeAccount, readEncoding } from "./accountJson.ts"
import { contextSlot, mintDecimalsFrom, withContext, type RpcEnvironment, type RpcMethod } from "./environment.ts"
import { isRecord, readAddress, readAmount, readCommitment, readConfig, readContextConfig, readOptionalBoolean, readOptionalInteger, readOptionalString, readSignature, requireParam } from "./params.ts"
import {
  invalidParams,
  paramError,
  RpcError,
  SEND_TRANSACTION_PREFLIGHT_FAILURE,
  TRANSACTION_SIGNATURE_VERIFICATION_FAILURE,
  UNSUPPORTED_TRANSACTION_VERSION
} from "./rpcError.ts"
import { encodeLandedTransaction, tokenBalanceJson, type TransactionEncoding } from "./transactionJson.ts"

/** Sending, simulating and looking up transactions. */
const MAX_SIGNATURES_FOR_ADDRESS = 1000
const MAX_SIGNATURE_STATUSES = 256

const readWireTransaction = (value: unknown, encoding: unknown): Uint8Array => {
  if (typeof value !== "string") throw invalidParams("invalid type: expected an encoded transaction string")
  if (encoding === "base64") {
    if (!/^[A-Za-z0-9+/]*={0,2}$/.test(value)) throw paramError("invalid base64 encoding: InvalidByte")
    return new Uint8Array(Buffer.from(value, "base64"))
  }
  if (encoding === undefined || encoding === null || encoding === "base58") {
    const bytes = decodeBase58(value)
    if (bytes === undefined) throw paramError("invalid base58 encoding: InvalidCharacter")
    return bytes
  }
  throw paramError(`unsupported encoding: ${String(encoding)}. Supported encodings: base58, base64`)
}

const decodeFailureError = (failure: DecodeFailure): RpcError =>
  failure.kind === "malformed"
    ? paramError(`failed to deserialize solana_transaction::versioned::VersionedTransaction: ${failure.reason}`)
    : paramError(`invalid transaction: ${transactionErrorText(failure.error)}`)

/** The `value` of simulateTransaction, also the `data` of a preflight failure. */
const simulationJson = (result: ExecutionResult, extra: { readonly accounts: JsonValue; readonly replacementBlockhash: JsonValue }): JsonValue => ({
  err: result.err,
  logs: result.logs,
  accounts: extra.accounts,
  unitsConsumed: result.unitsConsumed,
  returnData: result.returnData === undefined ? null : { programId: result.returnData.programId, data: [toBase64(result.returnData.data), "base64"] },
  innerInstructions: null,
  replacementBlockhash: extra.replacementBlockhash,
  loadedAccountsDataSize: 0,
  fee: result.fee,
  preBalances: result.preBalances,
  postBalances: result.postBalances,
  preTokenBalances: result.preTokenBalances.map(tokenBalanceJson),
  postTokenBalances: result.postTokenBalances.map(tokenBalanceJson)
})

const readTransactionEncoding = (value: unknown): TransactionEncoding => {
  if (value === undefined || value === null || value === "json") return "json"
  if (value === "base64" || value === "base58") return value
  if (value === "jsonParsed") throw paramError("jsonParsed transactions are not supported by the sandbox; use json or base64")
  throw invalidParams(`unknown variant \`${String(value)}\`, expected one of \`binary\`, \`base64\`, \`base58\`, \`json\`, \`jsonParsed\``)
}

const simulateAccounts = (environment: RpcEnvironment, value: unknown, result: ExecutionResult): JsonValue => {
  if (value === undefined || value === null) return null
  if (!isRecord(value) || !Array.isArray(value["addresses"])) throw invalidParams("invalid accounts config: expected {addresses, encoding}")
  const encoding = readEncoding(value["encoding"], "base64")
  const mintDecimals = mintDecimalsFrom(environment.ledger)
  return value["addresses"].map((address) => {
    const state = result.readAfter(readAddress(address))
    return state.lamports === 0n ? null : new RawJson(encodeAccount(state, encoding, undefined, mintDecimals))
  })
}

const statusJson = (environment: RpcEnvironment, signature: string, maxSlot: number): JsonValue => {
  const record = environment.ledger.transactions.get(signature)
  if (record === undefined || record.slot > maxSlot) return null
  const finalized = record.slot <= environment.ledger.clock.finalizedSlot
  return {
    slot: record.slot,
    confirmations: finalized ? null : environment.ledger.slot - record.slot,
    err: record.err,
    status: record.err === null ? { Ok: null } : { Err: record.err },
    confirmationStatus: finalized ? "finalized" : "confirmed"
  }
}

export const transactionMethods: Record<string, RpcMethod> = {
  sendTransaction: (params, environment) => {
    const config = readConfig(params[1])
    const wire = readWireTransaction(requireParam(params, 0, "an encoded transaction"), config["encoding"])
    readCommitment(config["preflightCommitment"])
    contextSlot(environment, { commitment: "processed", minContextSlot: readOptionalInteger(config["minContextSlot"], "minContextSlot") })
    const skipPreflight = readOptionalBoolean(config["skipPreflight"], "skipPreflight") === true
    const outcome = environment.processor.send(wire, { skipPreflight })
    switch (outcome.kind) {
      case "malformed":
      case "sanitize":
        throw decodeFailureError(outcome)
      case "signatureFailure":
        throw new RpcError(TRANSACTION_SIGNATURE_VERIFICATION_FAILURE, "Transaction signature verification failure")
      case "preflightFailed":
        throw new RpcError(
          SEND_TRANSACTION_PREFLIGHT_FAILURE,
          `Transaction simulation failed: ${transactionErrorText(outcome.result.err!)}`,
          simulationJson(outcome.result, { accounts: null, replacementBlockhash: null })
        )
      default:
        return outcome.signature
    }
  },
  simulateTransaction: (params, environment) => {
    const config = readConfig(params[1])
    const wire = readWireTransaction(requireParam(params, 0, "an encoded transaction"), config["encoding"])
    const sigVerify = readOptionalBoolean(config["sigVerify"], "sigVerify") === true
    const replaceRecentBlockhash = readOptionalBoolean(config["replaceRecentBlockhash"], "replaceRecentBlockhash") === true
    if (sigVerify && replaceRecentBlockhash) throw paramError("sigVerify may not be used with replaceRecentBlockhash")
    const slot = contextSlot(environment, readContextConfig(config))
    const outcome = environment.processor.simulate(wire, { sigVerify, replaceRecentBlockhash })
    if (outcome.kind === "malformed" || outcome.kind === "sanitize") throw decodeFailureError(outcome)
    if (outcome.kind === "signatureFailure") throw new RpcError(TRANSACTION_SIGNATURE_VERIFICATION_FAILURE, "Transaction signature verification failure")
    const replacement =
      outcome.replacementBlockhash === undefined
        ? null
        : { blockhash: outcome.replacementBlockhash, lastValidBlockHeight: environment.ledger.clock.lastValidBlockHeight(environment.ledger.slot) }
    return withContext(slot, simulationJson(outcome.result, { accounts: simulateAccounts(environment, config["accounts"], outcome.result), replacementBlockhash: replacement }))
  },
  getTransaction: (params, environment) => {
    // a stored signature is well formed: only an unknown one is checked (history fetches ask for thousands)
    const given = requireParam(params, 0, "a signature")
    const record = typeof given === "string" ? environment.ledger.transactions.get(given) : undefined
    if (record === undefined) readSignature(given)
    const config = typeof params[1] === "string" ? { encoding: params[1] } : readConfig(params[1])
    const commitment = readCommitment(config["commitment"])
    if (commitment === "processed") throw paramError("Method does not support commitment below `confirmed`")
    const encoding = readTransactionEncoding(config["encoding"])
    const maxVersion = readOptionalInteger(config["maxSupportedTransactionVersion"], "maxSupportedTransactionVersion")
    if (record === undefined || record.slot > environment.ledger.clock.slotFor(commitment)) return null
    if (record.version === 0 && maxVersion === undefined) {
      throw new RpcError(
        UNSUPPORTED_TRANSACTION_VERSION,
        'Transaction version (0) is not supported by the requesting client. Please try the request again with the following configuration parameter: "maxSupportedTransactionVersion": 0'
      )
    }
    return encodeLandedTransaction(record, encoding, maxVersion !== undefined)
  },
  getSignaturesForAddress: (params, environment) => {
    const address = readAddress(requireParam(params, 0, "an address"))
    const config = readConfig(params[1])
    const contextConfig = readContextConfig(config)
    if (contextConfig.commitment === "processed") throw paramError("Method does not support commitment below `confirmed`")
    const maxSlot = contextSlot(environment, contextConfig)
    const limit = readOptionalInteger(config["limit"], "limit") ?? MAX_SIGNATURES_FOR_ADDRESS
    if (limit < 1 || limit > MAX_SIGNATURES_FOR_ADDRESS) throw paramError(`Invalid limit; max ${MAX_SIGNATURES_FOR_ADDRESS}`)
    const before = readOptionalString(config["before"], "before")
    const until = readOptionalString(config["until"], "until")
    const finalizedSlot = environment.ledger.clock.finalizedSlot
    const records = environment.ledger.transactions.forAddress(address, {
      limit,
      maxSlot,
      ...(before === undefined ? {} : { before: readSignature(before) }),
      ...(until === undefined ? {} : { until: readSignature(until) })
    })
    return records.map((record) => ({
      signature: record.signature,
      slot: record.slot,
      err: record.err,
      memo: record.memo,
      blockTime: record.blockTime,
      confirmationStatus: record.slot <= finalizedSlot ? "finalized" : "confirmed"
    }))
  },
  getSignatureStatuses: (params, environment) => {
    const signatures = requireParam(params, 0, "an array of signatures")
    if (!Array.isArray(signatures)) throw invalidParams("invalid type: expected an array of signatures")
    if (signatures.length > MAX_SIGNATURE_STATUSES) throw paramError(`Too many inputs provided; max ${MAX_SIGNATURE_STATUSES}`)
    const slot = environment.ledger.slot
    return withContext(slot, signatures.map((signature) => statusJson(environment, readSignature(signature), slot)))
  },
  requestAirdrop: (params, environment) => {
    const address = readAddress(requireParam(params, 0, "an address"))
    const lamports = readAmount(requireParam(params, 1, "an amount of lamports"), "lamports")
    return environment.control.requestAirdrop(address, lamports)
  }
}
