import { Effect } from "effect"
import type { AccountUpdated, ChainSourceError } from "../../services/ChainSource.ts"
import type { SolanaRpc } from "../../services/SolanaRpc.ts"
import { chainFailure } from "./transactions.ts"

const MULTIPLE_ACCOUNTS_LIMIT = 100

export const fromBase64 = (data: string): Uint8Array => Buffer.from(data, "base64")

/** The program's accounts at one slot (getProgramAccounts with its context slot). */
export const snapshotProgramAccounts = (
  rpc: SolanaRpc["Type"],
  program: string
): Effect.Effect<{ readonly slot: number; readonly accounts: ReadonlyArray<AccountUpdated> }, ChainSourceError> =>
  rpc.call("getProgramAccounts", [program, { encoding: "base64", withContext: true, commitment: "confirmed" }]).pipe(
    Effect.mapError(chainFailure("getProgramAccounts")),
    Effect.map((response) => {
      const slot = Number(response.context.slot)
      return {
        slot,
        accounts: response.value.map((entry): AccountUpdated => ({
          _tag: "AccountUpdated",
          address: entry.pubkey,
          owner: entry.account.owner,
          slot,
          data: fromBase64(entry.account.data[0])
        }))
      }
    })
  )

/**
 * Current state of some accounts at `minSlot` or later. A missing account comes back with empty data
 * and an empty owner, so it can be told from an existing account of another program.
 */
export const fetchAccounts = (
  rpc: SolanaRpc["Type"],
  addresses: ReadonlyArray<string>,
  minSlot: number
): Effect.Effect<Array<AccountUpdated>, ChainSourceError> =>
  Effect.gen(function*() {
    const updates: Array<AccountUpdated> = []
    for (let start = 0; start < addresses.length; start += MULTIPLE_ACCOUNTS_LIMIT) {
      const chunk = addresses.slice(start, start + MULTIPLE_ACCOUNTS_LIMIT)
      const response = yield* rpc
        .call("getMultipleAccounts", [chunk, { encoding: "base64", commitment: "confirmed", minContextSlot: minSlot }])
        .pipe(Effect.mapError(chainFailure("getMultipleAccounts")))
      const slot = Number(response.context.slot)
      response.value.forEach((account, i) => {
        updates.push({
          _tag: "AccountUpdated",
          address: chunk[i]!,
          owner: account?.owner ?? "",
          slot,
          data: account === null ? new Uint8Array() : fromBase64(account.data[0])
        })
      })
    }
    return updates
  })
