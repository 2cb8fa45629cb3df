import type { Ledger } from "../ledger/ledger.ts"
import type { TransactionRecord } from "../ledger/transactionStore.ts"
import { addressToBytes, verifySignature, type Keypair } from "../crypto/keypair.ts"
import { MEMO_PROGRAM_ID, MEMO_V1_PROGRAM_ID, SYSTEM_PROGRAM_ID } from "../programs/ids.ts"
import { decodeMemo } from "../programs/memo.ts"
import { encodeBase58 } from "../../ntbundle/base58.ts"
import { compileLegacyMessage, signMessage, wireTransaction } from "./compile.ts"
import { executeMessage, type ExecutionResult } from "./executor.ts"
import { decodeTransaction, PACKET_DATA_SIZE, sanitizeMessage, type DecodedTransaction, type DecodeFailure } from "./message.ts"
import type { Instruction, ProgramRegistry } from "./program.ts"

/**
 * The one path by which transactions land: sendTransaction, simulateTransaction and the sandbox's
 * own actors all come through here.
 *
 * - With preflight, a transaction that would fail is refused (-32002 at the RPC) and changes
 *   nothing; a bad signature is refused first (-32003).
 * - Without preflight, the RPC returns the signature regardless; a bad signature, an expired
 *   blockhash or a fee payer that cannot pay means the transaction is dropped (it never appears);
 *   a failure during execution lands the transaction with its error, fee charged.
 * - A landed transaction lands at the current slot, immediately (there is no leader queue).
 */
export type SendOutcome =
  | { readonly kind: "landed"; readonly signature: string; readonly record: TransactionRecord; readonly result: ExecutionResult }
  | { readonly kind: "preflightFailed"; readonly signature: string; readonly result: ExecutionResult }
  | { readonly kind: "signatureFailure"; readonly signature: string }
  | { readonly kind: "dropped"; readonly signature: string; readonly result: ExecutionResult | undefined }

export type SimulateOutcome =
  | { readonly kind: "simulated"; readonly result: ExecutionResult; readonly replacementBlockhash: string | undefined }
  | { readonly kind: "signatureFailure" }

export interface SendOptions {
  readonly skipPreflight?: boolean
}

export interface SubmitRequest {
  readonly feePayer: Keypair
  /** Other signers (the fee payer signs anyway). */
  readonly signers?: ReadonlyArray<Keypair>
  readonly instructions: ReadonlyArray<Instruction>
  readonly skipPreflight?: boolean
  /** Defaults to the latest blockhash. */
  readonly recentBlockhash?: string
}

export class TransactionProcessor {
  constructor(
    private readonly ledger: Ledger,
    private readonly programs: ProgramRegistry
  ) {}

  /** sendTransaction on wire bytes. */
  send(wireBytes: Uint8Array, options: SendOptions = {}): SendOutcome | DecodeFailure {
    const transaction = decodeTransaction(wireBytes)
    if ("kind" in transaction) return transaction
    return this.sendDecoded(transaction, options)
  }

  sendDecoded(transaction: DecodedTransaction, options: SendOptions = {}, signedHere = false): SendOutcome {
    const { signature } = transaction
    if (!signedHere && !signaturesVerify(transaction)) {
      return options.skipPreflight === true ? { kind: "dropped", signature, result: undefined } : { kind: "signatureFailure", signature }
    }
    if (this.ledger.transactions.get(signature) !== undefined) {
      return options.skipPreflight === true
        ? { kind: "dropped", signature, result: undefined }
        : { kind: "preflightFailed", signature, result: alreadyProcessed() }
    }
    const result = executeMessage(this.ledger, this.programs, transaction)
    if (result.err !== null && options.skipPreflight !== true) return { kind: "preflightFailed", signature, result }
    if (!result.landable) return { kind: "dropped", signature, result }
    return { kind: "landed", signature, record: this.land(transaction, result), result }
  }

  simulate(wireBytes: Uint8Array, options: { readonly sigVerify?: boolean; readonly replaceRecentBlockhash?: boolean }): SimulateOutcome | DecodeFailure {
    const transaction = decodeTransaction(wireBytes)
    if ("kind" in transaction) return transaction
    if (options.sigVerify === true && !signaturesVerify(transaction)) return { kind: "signatureFailure" }
    const replace = options.replaceRecentBlockhash === true
    const result = executeMessage(this.ledger, this.programs, transaction, { ignoreBlockhash: replace })
    return { kind: "simulated", result, replacementBlockhash: replace ? this.ledger.clock.blockhash() : undefined }
  }

  /** Builds, signs and sends a transaction for an actor holding its keypairs. */
  submit(request: SubmitRequest): SendOutcome {
    const message = compileLegacyMessage(request.feePayer.address, request.instructions, request.recentBlockhash ?? this.ledger.clock.blockhash())
    const signatures = signMessage(message, [request.feePayer, ...(request.signers ?? [])])
    const wireBytes = wireTransaction(message, signatures)
    // What decoding `wireBytes` would give, taken from the compiler instead (tests hold them equal).
    const transaction: DecodedTransaction = {
      version: "legacy",
      header: message.header,
      accountKeys: message.staticAccounts,
      recentBlockhash: message.recentBlockhash,
      instructions: message.instructions,
      usesLookupTables: false,
      wireBytes,
      messageBytes: message.messageBytes,
      signatures,
      signature: encodeBase58(signatures[0]!)
    }
    const problem =
      wireBytes.length > PACKET_DATA_SIZE ? `transaction too large: ${wireBytes.length} bytes (max: ${PACKET_DATA_SIZE})` : sanitizeMessage(transaction)
    if (problem !== undefined) throw new Error(`sandbox built an invalid transaction: ${problem}`)
    // Signed a moment ago with the actor's own keypairs: verifying (about 0.1 ms per signature)
    // would only re-check node:crypto. Everything else is the sendTransaction path.
    return this.sendDecoded(transaction, request.skipPreflight === true ? { skipPreflight: true } : {}, true)
  }

  private land(transaction: DecodedTransaction, result: ExecutionResult): TransactionRecord {
    const slot = this.ledger.slot
    return this.ledger.commitTransaction(result.changes, {
      signature: transaction.signature,
      slot,
      blockTime: this.ledger.clock.blockTime(slot),
      wireBytes: transaction.wireBytes,
      version: transaction.version,
      accountKeys: transaction.accountKeys,
      err: result.err,
      logs: result.logs,
      fee: result.fee,
      computeUnitsConsumed: result.unitsConsumed,
      preBalances: result.preBalances,
      postBalances: result.postBalances,
      preTokenBalances: result.preTokenBalances,
      postTokenBalances: result.postTokenBalances,
      memo: memoOf(transaction),
      computeUnitPrice: result.computeUnitPrice
    })
  }
}

const signaturesVerify = (transaction: DecodedTransaction): boolean =>
  transaction.signatures.every((signature, index) =>
    verifySignature(addressToBytes(transaction.accountKeys[index]!), transaction.messageBytes, signature)
  )

const alreadyProcessed = (): ExecutionResult => ({
  err: "AlreadyProcessed",
  landable: false,
  logs: [],
  unitsConsumed: 0,
  fee: 0n,
  computeUnitPrice: 0n,
  returnData: undefined,
  changes: [],
  readAfter: () => ({ owner: SYSTEM_PROGRAM_ID, lamports: 0n, data: new Uint8Array(0), executable: false }),
  preBalances: [],
  postBalances: [],
  preTokenBalances: [],
  postTokenBalances: []
})

/** getSignaturesForAddress's `memo`: `[length] text` for each memo instruction, joined by "; ". */
const memoOf = (transaction: DecodedTransaction): string | null => {
  const memos: string[] = []
  for (const instruction of transaction.instructions) {
    const programId = transaction.accountKeys[instruction.programIndex]
    if (programId !== MEMO_PROGRAM_ID && programId !== MEMO_V1_PROGRAM_ID) continue
    const text = decodeMemo(instruction.data)
    if (text !== undefined) memos.push(`[${instruction.data.length}] ${text}`)
  }
  return memos.length === 0 ? null : memos.join("; ")
}
