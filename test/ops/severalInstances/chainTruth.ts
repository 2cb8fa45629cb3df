import { eventsFromLogs } from "../../../src/ntbundle/events.ts"
import { sandboxCall } from "../../support/ingestHarness.ts"

/**
 * The chain's ground truth, asked of the sandbox over its JSON-RPC as any client would: every
 * program transaction at "confirmed" (newest first, paged), the newest slot listed, and the events of the successful ones, as
 * `signature:index` keys (the event log's primary key).
 */
export const chainEvents = async (rpcUrl: string, programId: string) => {
  const signatures: Array<string> = []
  let newestSlot = 0
  let before: string | undefined
  for (;;) {
    const page = (await sandboxCall(rpcUrl, "getSignaturesForAddress", [programId, { limit: 1000, commitment: "confirmed", ...(before === undefined ? {} : { before }) }])) as Array<{ signature: string; slot: number }>
    signatures.push(...page.map((entry) => entry.signature))
    for (const entry of page) newestSlot = Math.max(newestSlot, entry.slot)
    if (page.length < 1000) break
    before = page[page.length - 1]!.signature
  }
  const events = new Set<string>()
  for (const signature of signatures) {
    const tx = await sandboxCall(rpcUrl, "getTransaction", [signature, { encoding: "json", maxSupportedTransactionVersion: 0, commitment: "confirmed" }])
    if (tx === null || tx.meta.err !== null) continue
    for (const { index } of eventsFromLogs(tx.meta.logMessages as Array<string>, programId)) events.add(`${signature}:${index}`)
  }
  return { signatures: new Set(signatures), events, newestSlot }
}
