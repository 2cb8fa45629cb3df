import { Effect } from "effect"
import { ChainSourceError, type ProgramEvents } from "../../services/ChainSource.ts"
import type { SolanaRpc, SolanaRpcRequest } from "../../services/SolanaRpc.ts"
import { programEventsFromAnswer } from "./programTransaction.ts"

type Rpc = SolanaRpc["Type"]

export interface SignatureInfo {
  readonly signature: string
  readonly slot: number
}

/** An RPC failure as the chain source reports it. */
export const chainFailure = (what: string) => (error: unknown) =>
  new ChainSourceError({ message: `${what}: ${error instanceof Error ? error.message : String(error)}`, cause: error })

/** getTransaction's configuration: `confirmed` (what notifications announce), raw bytes (cheapest to serve and read). */
const getTransaction = (signature: string): SolanaRpcRequest<"getTransaction"> => ({
  method: "getTransaction",
  params: [signature, { encoding: "base64", maxSupportedTransactionVersion: 0, commitment: "confirmed" }]
})

/** MalformedTransaction's message names the call and the signature. */
const malformed = (error: unknown) => new ChainSourceError({ message: error instanceof Error ? error.message : String(error), cause: error })

/**
 * One program transaction with its events and writable accounts, or null while the node does not
 * serve it yet (getTransaction needs `confirmed`; a notification can arrive earlier).
 */
export const fetchProgramTransaction = (rpc: Rpc, programId: string, signature: string): Effect.Effect<ProgramEvents | null, ChainSourceError> => {
  const { method, params } = getTransaction(signature)
  return rpc.call(method, params).pipe(
    Effect.mapError(chainFailure("getTransaction")),
    Effect.flatMap((answer) => Effect.try({ try: () => programEventsFromAnswer(answer, programId, signature), catch: malformed }))
  )
}

/**
 * Several program transactions in one JSON-RPC batch, in the order asked; null for one the node
 * does not serve. Fails when the node answers any of them with an error (the caller retries).
 */
export const fetchProgramTransactions = (
  rpc: Rpc,
  programId: string,
  signatures: ReadonlyArray<string>
): Effect.Effect<Array<ProgramEvents | null>, ChainSourceError> =>
  // each answer is decoded as it is read; a malformed one is kept as its error and fails the batch
  rpc.batch(signatures.map(getTransaction), (answer, i) => {
    try {
      return programEventsFromAnswer(answer, programId, signatures[i]!)
    } catch (error) {
      return malformed(error)
    }
  }).pipe(
    Effect.mapError(chainFailure(`getTransaction (${signatures.length} from ${signatures[0]})`)),
    Effect.flatMap((answers) =>
      Effect.forEach(answers, (answer, i) =>
        !answer.ok
          ? Effect.fail(malformed(new Error(`getTransaction ${signatures[i]!}: JSON-RPC error ${answer.code}: ${answer.message}`)))
          : answer.result instanceof ChainSourceError
            ? Effect.fail(answer.result)
            : Effect.succeed(answer.result))
    )
  )

const PAGE = 1_000

const signaturePage = (
  rpc: Rpc,
  program: string,
  page: { readonly limit: number; readonly before?: string | undefined; readonly until?: string | null | undefined }
) =>
  rpc
    .call("getSignaturesForAddress", [
      program,
      {
        limit: page.limit,
        commitment: "confirmed",
        ...(page.before === undefined ? {} : { before: page.before }),
        ...(page.until === undefined || page.until === null ? {} : { until: page.until })
      }
    ])
    .pipe(
      Effect.mapError(chainFailure("getSignaturesForAddress")),
      Effect.filterOrFail(Array.isArray, () => new ChainSourceError({ message: "getSignaturesForAddress: the answer is not a list" }))
    )

/**
 * The program's transactions after `until` (exclusive; null: all of them), oldest first. Stops
 * once `limit` are collected and reports whether more remain, so a caller can tell a bridgeable gap
 * from a chasm.
 */
export const signaturesAfter = (rpc: Rpc, program: string, until: string | null, limit: number) =>
  Effect.gen(function*() {
    const collected: Array<SignatureInfo> = []
    let before: string | undefined
    for (;;) {
      const page = yield* signaturePage(rpc, program, { limit: PAGE, until, before })
      for (const entry of page) collected.push({ signature: entry.signature, slot: entry.slot })
      if (page.length < PAGE) return { signatures: collected.reverse(), complete: true }
      if (collected.length >= limit) return { signatures: collected.reverse(), complete: false }
      before = page[page.length - 1]!.signature
    }
  })

/** The newest program transaction, the seam where live ingestion starts on an empty projection. */
export const newestSignature = (rpc: Rpc, program: string): Effect.Effect<SignatureInfo | null, ChainSourceError> =>
  Effect.map(signaturePage(rpc, program, { limit: 1 }), ([newest]) =>
    newest === undefined ? null : { signature: newest.signature, slot: newest.slot })

export interface HistoricalSignature extends SignatureInfo {
  readonly blockTime: number | null
}

/**
 * The program's transactions before `before` (exclusive; null = from the newest), newest first,
 * back to the program's first transaction or to `sinceBlockTime`.
 */
export const signaturesBefore = (rpc: Rpc, program: string, before: string | null, sinceBlockTime: number | null) =>
  Effect.gen(function*() {
    const collected: Array<HistoricalSignature> = []
    let cursor = before ?? undefined
    for (;;) {
      const page = yield* signaturePage(rpc, program, { limit: PAGE, before: cursor })
      for (const entry of page) {
        const blockTime = entry.blockTime ?? null
        if (sinceBlockTime !== null && blockTime !== null && blockTime < sinceBlockTime) return collected
        collected.push({ signature: entry.signature, slot: entry.slot, blockTime })
      }
      if (page.length < PAGE) return collected
      cursor = page[page.length - 1]!.signature
    }
  })
