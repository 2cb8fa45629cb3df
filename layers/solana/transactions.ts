import { type Address, type Signature, signature as toSignature } from "@solana/kit"
import type { ProgramEvents } from "../../services/ChainSource.ts"
import { eventsFromLogs } from "../../src/ntbundle/events.ts"
import type { SolanaRpc } from "./rpc.ts"

export interface SignatureInfo {
  readonly signature: string
  readonly slot: number
}

interface MessageHeader {
  readonly numRequiredSignatures: number
  readonly numReadonlySignedAccounts: number
  readonly numReadonlyUnsignedAccounts: number
}

/** The keys a message lets its instructions write, in Solana's account-ordering rules. */
export const writableKeys = (
  accountKeys: ReadonlyArray<string>,
  header: MessageHeader,
  loadedWritable: ReadonlyArray<string> = []
): Array<string> => {
  const signedWritable = header.numRequiredSignatures - header.numReadonlySignedAccounts
  const unsignedWritableEnd = accountKeys.length - header.numReadonlyUnsignedAccounts
  const keys = accountKeys.filter(
    (_, i) => i < signedWritable || (i >= header.numRequiredSignatures && i < unsignedWritableEnd)
  )
  return [...keys, ...loadedWritable]
}

/**
 * One program transaction with its events and writable accounts, or null while the node does not
 * serve it yet (getTransaction needs `confirmed`; a notification can arrive earlier).
 */
export const fetchProgramTransaction = async (
  rpc: SolanaRpc,
  programId: string,
  signature: string
): Promise<ProgramEvents | null> => {
  const tx = await rpc
    .getTransaction(toSignature(signature), {
      encoding: "json",
      maxSupportedTransactionVersion: 0,
      commitment: "confirmed"
    })
    .send()
  if (tx === null) return null
  const logs = tx.meta?.logMessages ?? []
  const failed = tx.meta?.err != null
  const loaded = tx.meta?.loadedAddresses?.writable ?? []
  return {
    _tag: "ProgramEvents",
    signature,
    slot: Number(tx.slot),
    blockTime: tx.blockTime === null ? null : Number(tx.blockTime),
    failed,
    events: failed ? [] : eventsFromLogs(logs, programId),
    writableAccounts: writableKeys(tx.transaction.message.accountKeys, tx.transaction.message.header, loaded)
  }
}

const PAGE = 1_000

/**
 * The program's transactions after `until` (exclusive), oldest first. Stops once `limit` are
 * collected and reports whether more remain, so a caller can tell a bridgeable gap from a chasm.
 */
export const signaturesAfter = async (
  rpc: SolanaRpc,
  program: Address,
  until: string | null,
  limit: number
): Promise<{ readonly signatures: ReadonlyArray<SignatureInfo>; readonly complete: boolean }> => {
  const collected: Array<SignatureInfo> = []
  let before: Signature | undefined
  for (;;) {
    const page = await rpc
      .getSignaturesForAddress(program, {
        limit: PAGE,
        commitment: "confirmed",
        ...(until === null ? {} : { until: toSignature(until) }),
        ...(before === undefined ? {} : { before })
      })
      .send()
    for (const entry of page) collected.push({ signature: entry.signature, slot: Number(entry.slot) })
    if (page.length < PAGE) return { signatures: collected.reverse(), complete: true }
    if (collected.length >= limit) return { signatures: collected.reverse(), complete: false }
    before = page[page.length - 1]!.signature
  }
}

/** The newest program transaction, the seam where live ingestion starts on an empty projection. */
export const newestSignature = async (rpc: SolanaRpc, program: Address): Promise<SignatureInfo | null> => {
  const [newest] = await rpc.getSignaturesForAddress(program, { limit: 1, commitment: "confirmed" }).send()
  return newest === undefined ? null : { signature: newest.signature, slot: Number(newest.slot) }
}

export interface HistoricalSignature extends SignatureInfo {
  readonly blockTime: number | null
}

/**
 * The program's transactions before `before` (exclusive; null = from the newest), newest first,
 * back to the program's first transaction or to `sinceBlockTime`.
 */
export const signaturesBefore = async (
  rpc: SolanaRpc,
  program: Address,
  before: string | null,
  sinceBlockTime: number | null
): Promise<Array<HistoricalSignature>> => {
  const collected: Array<HistoricalSignature> = []
  let cursor = before === null ? undefined : toSignature(before)
  for (;;) {
    const page = await rpc
      .getSignaturesForAddress(program, { limit: PAGE, commitment: "confirmed", ...(cursor === undefined ? {} : { before: cursor }) })
      .send()
    for (const entry of page) {
      const blockTime = entry.blockTime === null ? null : Number(entry.blockTime)
      if (sinceBlockTime !== null && blockTime !== null && blockTime < sinceBlockTime) return collected
      collected.push({ signature: entry.signature, slot: Number(entry.slot), blockTime })
    }
    if (page.length < PAGE) return collected
    cursor = page[page.length - 1]!.signature
  }
}
