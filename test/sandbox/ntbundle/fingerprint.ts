import { createHash } from "node:crypto"
import type { Ledger } from "../../../src/sandbox/ledger/ledger.ts"
import { DEFAULT_NTBUNDLE_PROGRAM_ID, SYSTEM_PROGRAM_ID, TOKEN_PROGRAM_ID } from "../../../src/sandbox/programs/ids.ts"

/**
 * Owner, lamports and data hash of every program, token and wallet account: equal fingerprints
 * mean nothing changed.
 */
export const fingerprint = (ledger: Ledger, programId: string = DEFAULT_NTBUNDLE_PROGRAM_ID): Record<string, string> => {
  const out: Record<string, string> = {}
  for (const owner of [programId, TOKEN_PROGRAM_ID, SYSTEM_PROGRAM_ID]) {
    for (const [address, record] of ledger.accounts.ownedBy(owner)) {
      out[address] = `${record.owner}:${record.lamports}:${createHash("sha256").update(record.data).digest("hex")}`
    }
  }
  if (Object.keys(out).length < 10) throw new Error("fingerprint: the ledger looks empty")
  return out
}
