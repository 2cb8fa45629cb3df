import { encodeBase58 } from "../../ntbundle/base58.ts"
import { toBase64 } from "../codec/bytes.ts"
import { RawJson, type JsonValue } from "../codec/json.ts"
import type { TokenBalance, TransactionRecord } from "../ledger/transactionStore.ts"
import { formatUiAmount } from "../programs/tokenLayout.ts"
import { decodeTransaction } from "../runtime/message.ts"

/**
 * getTransaction's answer for a landed transaction, in `json`, `base64` or `base58` encoding.
 * Approximations: `innerInstructions` is always empty (CPIs are visible in the logs only),
 * `rewards` empty, no `costUnits`; `loadedAddresses` is empty (no lookup tables).
 */
export type TransactionEncoding = "json" | "base64" | "base58"

export const tokenBalanceJson = (balance: TokenBalance): JsonValue => ({
  accountIndex: balance.accountIndex,
  mint: balance.mint,
  owner: balance.owner,
  programId: balance.programId,
  uiTokenAmount: {
    amount: balance.amount.toString(),
    decimals: balance.decimals,
    uiAmount: Number(balance.amount) / 10 ** balance.decimals,
    uiAmountString: formatUiAmount(balance.amount, balance.decimals)
  }
})

// The bulk of a history fetch: serialized natively rather than value by value.
const stringsJson = (values: ReadonlyArray<string>): RawJson => new RawJson(JSON.stringify(values))
const integersJson = (values: ReadonlyArray<bigint>): RawJson => new RawJson(`[${values.join(",")}]`)

const metaJson = (record: TransactionRecord): JsonValue => ({
  computeUnitsConsumed: record.computeUnitsConsumed,
  err: record.err,
  fee: record.fee,
  innerInstructions: [],
  loadedAddresses: { readonly: [], writable: [] },
  logMessages: stringsJson(record.logs),
  postBalances: integersJson(record.postBalances),
  postTokenBalances: record.postTokenBalances.map(tokenBalanceJson),
  preBalances: integersJson(record.preBalances),
  preTokenBalances: record.preTokenBalances.map(tokenBalanceJson),
  rewards: [],
  status: record.err === null ? { Ok: null } : { Err: record.err }
})

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

export const encodeLandedTransaction = (
  record: TransactionRecord,
  encoding: TransactionEncoding,
  includeVersion: boolean
): JsonValue => ({
  blockTime: record.blockTime,
  meta: metaJson(record),
  slot: record.slot,
  transaction:
    encoding === "json"
      ? transactionJson(record)
      : encoding === "base64"
        ? [toBase64(record.wireBytes), "base64"]
        : [encodeBase58(record.wireBytes), "base58"],
  version: includeVersion ? record.version : undefined
})
