import { encodeBase58 } from "../../ntbundle/base58.ts"
import { toBase64 } from "../codec/bytes.ts"
import { JsonStream, RawJson, stringifyJson, type JsonValue } from "../codec/json.ts"
import { tokenAmountJson } from "./accountJson.ts"
import type { TokenBalance, TransactionRecord } from "../ledger/transactionStore.ts"
import { decodeTransaction } from "../runtime/message.ts"

/**
 * getTransaction's answer for a landed transaction, in `json`, `base64` or `base58` encoding.
 * Approximations: `innerInstructions` is always empty (CPIs are visible in the logs only),
 * `rewards` empty, no `costUnits`; `loadedAddresses` is empty (no lookup tables).
 */
export type TransactionEncoding = "json" | "base64" | "base58"

/** A token balance's text, written out directly (a history fetch serves thousands). */
const tokenBalanceText = (balance: TokenBalance): string =>
  `{"accountIndex":${balance.accountIndex},"mint":${JSON.stringify(balance.mint)},"owner":${JSON.stringify(balance.owner)},` +
  `"programId":${JSON.stringify(balance.programId)},"uiTokenAmount":${tokenAmountJson(balance.amount, balance.decimals)}}`

export const tokenBalanceJson = (balance: TokenBalance): JsonValue => new RawJson(tokenBalanceText(balance))

const tokenBalancesText = (balances: ReadonlyArray<TokenBalance>): string => `[${balances.map(tokenBalanceText).join(",")}]`

/**
 * The `meta` object's text, written out directly rather than built as a value and serialized
 * field by field: a history backfill fetches every landed transaction, and this was the largest
 * part of the sandbox's work in serving it.
 */
const metaText = (record: TransactionRecord): string => {
  const err = stringifyJson(record.err)
  return `{"computeUnitsConsumed":${record.computeUnitsConsumed},"err":${err},"fee":${record.fee},"innerInstructions":[],` +
    `"loadedAddresses":{"readonly":[],"writable":[]},"logMessages":${JSON.stringify(record.logs)},` +
    `"postBalances":[${record.postBalances.join(",")}],"postTokenBalances":${tokenBalancesText(record.postTokenBalances)},` +
    `"preBalances":[${record.preBalances.join(",")}],"preTokenBalances":${tokenBalancesText(record.preTokenBalances)},` +
    `"rewards":[],"status":${record.err === null ? `{"Ok":null}` : `{"Err":${err}}`}}`
}

const transactionJson = (record: TransactionRecord): JsonValue => {
  const decoded = decodeTransaction(record.wireBytes)
  if ("kind" in decoded) throw new Error(`stored transaction ${record.signature} no longer decodes`)
  const message: Record<string, JsonValue> = {
    accountKeys: decoded.accountKeys,
    header: {
      numReadonlySignedAccounts: decoded.header.numReadonlySignedAccounts,
      numReadonlyUnsignedAccounts: decoded.header.numReadonlyUnsignedAccounts,
      numRequiredSignatures: decoded.header.numRequiredSignatures
    },
    instructions: decoded.instructions.map((instruction) => ({
      accounts: instruction.accountIndexes,
      data: encodeBase58(instruction.data),
      programIdIndex: instruction.programIndex,
      stackHeight: null
    })),
    recentBlockhash: decoded.recentBlockhash
  }
  if (decoded.version === 0) message["addressTableLookups"] = []
  return { message, signatures: decoded.signatures.map(encodeBase58) }
}

/**
 * The answer for a landed transaction, serialized when it is written: a record never changes once
 * landed, and a history fetch's batch of answers is then never held as text all at once (it
 * outlived young collections and was copied into the old generation). The `json` encoding decodes
 * the stored bytes, which could fail: that is done now, inside the request.
 */
export const encodeLandedTransaction = (
  record: TransactionRecord,
  encoding: TransactionEncoding,
  includeVersion: boolean
): JsonStream => {
  const decoded = encoding === "json" ? stringifyJson(transactionJson(record)) : null
  return new JsonStream(function* () {
    const transaction = decoded ?? (encoding === "base64" ? `["${toBase64(record.wireBytes)}","base64"]` : `["${encodeBase58(record.wireBytes)}","base58"]`)
    const version = includeVersion ? `,"version":${JSON.stringify(record.version)}` : ""
    yield `{"blockTime":${record.blockTime},"meta":${metaText(record)},"slot":${record.slot},"transaction":${transaction}${version}}`
  })
}
