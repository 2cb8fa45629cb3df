import type { ProgramEvents } from "../../services/ChainSource.ts"
import type { JsonRpcClient } from "./jsonRpcClient.ts"
import { JsonRpcFailure } from "./jsonRpcClient.ts"
import { programEventsFromAnswer } from "./programTransaction.ts"

export interface SignatureInfo {
  readonly signature: string
  readonly slot: number
}

/** getTransaction's configuration: `confirmed` (what notifications announce), raw bytes (cheapest to serve and read). */
const TRANSACTION_CONFIG = { encoding: "base64", maxSupportedTransactionVersion: 0, commitment: "confirmed" } as const

const getTransaction = (signature: string) => ({ method: "getTransaction", params: [signature, TRANSACTION_CONFIG] })

/**
 * One program transaction with its events and writable accounts, or null while the node does not
 * serve it yet (getTransaction needs `confirmed`; a notification can arrive earlier).
 */
export const fetchProgramTransaction = async (
  client: JsonRpcClient,
  programId: string,
  signature: string
): Promise<ProgramEvents | null> => {
  const { method, params } = getTransaction(signature)
  return programEventsFromAnswer(await client.call(method, params), programId, signature)
}

/**
 * Several program transactions in one JSON-RPC batch, in the order asked; null for one the node
 * does not serve. Fails when the node answers any of them with an error (the caller retries).
 */
export const fetchProgramTransactions = async (
  client: JsonRpcClient,
  programId: string,
  signatures: ReadonlyArray<string>
): Promise<Array<ProgramEvents | null>> => {
  const answers = await client.batch(signatures.map(getTransaction))
  return answers.map((answer, i) => {
    const signature = signatures[i]!
    if (!answer.ok) throw new JsonRpcFailure(`getTransaction ${signature}: ${answer.message} (${answer.code})`)
    return programEventsFromAnswer(answer.result, programId, signature)
  })
}

const PAGE = 1_000

interface SignatureEntry {
  readonly signature: string
  readonly slot: number
  readonly blockTime?: number | null
}

const signaturePage = async (
  client: JsonRpcClient,
  program: string,
  page: { readonly limit: number; readonly before?: string | undefined; readonly until?: string | null | undefined }
): Promise<ReadonlyArray<SignatureEntry>> => {
  const config: Record<string, unknown> = { limit: page.limit, commitment: "confirmed" }
  if (page.before !== undefined) config["before"] = page.before
  if (page.until !== undefined && page.until !== null) config["until"] = page.until
  const result = await client.call("getSignaturesForAddress", [program, config])
  if (!Array.isArray(result)) throw new JsonRpcFailure("getSignaturesForAddress: the answer is not a list")
  return result as ReadonlyArray<SignatureEntry>
}

/**
 * The program's transactions after `until` (exclusive; null: all of them), oldest first. Stops
 * once `limit` are collected and reports whether more remain, so a caller can tell a bridgeable gap
 * from a chasm.
 */
export const signaturesAfter = async (
  client: JsonRpcClient,
  program: string,
  until: string | null,
  limit: number
): Promise<{ readonly signatures: ReadonlyArray<SignatureInfo>; readonly complete: boolean }> => {
  const collected: Array<SignatureInfo> = []
  let before: string | undefined
  for (;;) {
    const page = await signaturePage(client, program, { limit: PAGE, until, before })
    for (const entry of page) collected.push({ signature: entry.signature, slot: entry.slot })
    if (page.length < PAGE) return { signatures: collected.reverse(), complete: true }
    if (collected.length >= limit) return { signatures: collected.reverse(), complete: false }
    before = page[page.length - 1]!.signature
  }
}

/** The newest program transaction, the seam where live ingestion starts on an empty projection. */
export const newestSignature = async (client: JsonRpcClient, program: string): Promise<SignatureInfo | null> => {
  const [newest] = await signaturePage(client, program, { limit: 1 })
  return newest === undefined ? null : { signature: newest.signature, slot: newest.slot }
}

export interface HistoricalSignature extends SignatureInfo {
  readonly blockTime: number | null
}

/**
 * The program's transactions before `before` (exclusive; null = from the newest), newest first,
 * back to the program's first transaction or to `sinceBlockTime`.
 */
export const signaturesBefore = async (
  client: JsonRpcClient,
  program: string,
  before: string | null,
  sinceBlockTime: number | null
): Promise<Array<HistoricalSignature>> => {
  const collected: Array<HistoricalSignature> = []
  let cursor = before ?? undefined
  for (;;) {
    const page = await signaturePage(client, program, { limit: PAGE, before: cursor })
    for (const entry of page) {
      const blockTime = entry.blockTime ?? null
      if (sinceBlockTime !== null && blockTime !== null && blockTime < sinceBlockTime) return collected
      collected.push({ signature: entry.signature, slot: entry.slot, blockTime })
    }
    if (page.length < PAGE) return collected
    cursor = page[page.length - 1]!.signature
  }
}
