import { Context, Data, type Effect } from "effect"

type Commitment = "processed" | "confirmed" | "finalized"

interface WithSlot<A> {
  readonly context: { readonly slot: number }
  readonly value: A
}

/** An account as `base64` encoding returns it. */
interface EncodedAccount {
  readonly owner: string
  readonly data: readonly [string, "base64"]
}

/**
 * The JSON-RPC methods the gateway calls: their params and the parts of their answers it reads
 * (numbers as JSON numbers; no u64 the gateway reads can pass 2^53). Answers are not validated:
 * what reads them checks what it relies on.
 */
export interface SolanaRpcMethods {
  readonly getGenesisHash: { readonly params: readonly []; readonly result: string }
  readonly getSlot: { readonly params: readonly [{ readonly commitment: Commitment }]; readonly result: number }
  readonly getBlockTime: { readonly params: readonly [slot: number]; readonly result: number | null }
  readonly getLatestBlockhash: {
    readonly params: readonly [{ readonly commitment: Commitment }]
    readonly result: WithSlot<{ readonly blockhash: string; readonly lastValidBlockHeight: number }>
  }
  readonly getRecentPrioritizationFees: {
    readonly params: readonly []
    readonly result: ReadonlyArray<{ readonly slot: number; readonly prioritizationFee: number }>
  }
  readonly getTokenAccountBalance: {
    readonly params: readonly [account: string, { readonly commitment: Commitment }]
    readonly result: WithSlot<{ readonly amount: string }>
  }
  readonly simulateTransaction: {
    readonly params: readonly [
      transactionBase64: string,
      {
        readonly encoding: "base64"
        readonly sigVerify: false
        readonly replaceRecentBlockhash: true
        readonly commitment: Commitment
      }
    ]
    readonly result: WithSlot<{
      readonly err: unknown
      readonly logs: ReadonlyArray<string> | null
      readonly unitsConsumed?: number | null
    }>
  }
  readonly getProgramAccounts: {
    readonly params: readonly [program: string, { readonly encoding: "base64"; readonly withContext: true; readonly commitment: Commitment }]
    readonly result: WithSlot<ReadonlyArray<{ readonly pubkey: string; readonly account: EncodedAccount }>>
  }
  readonly getMultipleAccounts: {
    readonly params: readonly [
      addresses: ReadonlyArray<string>,
      { readonly encoding: "base64"; readonly commitment: Commitment; readonly minContextSlot: number }
    ]
    readonly result: WithSlot<ReadonlyArray<EncodedAccount | null>>
  }
  readonly getSignaturesForAddress: {
    readonly params: readonly [
      address: string,
      {
        readonly limit: number
        readonly commitment: Commitment
        readonly before?: string
        readonly until?: string
      }
    ]
    readonly result: ReadonlyArray<{ readonly signature: string; readonly slot: number; readonly blockTime?: number | null }>
  }
  /** Read by the ingestion's transaction decoder, which checks the shape itself. */
  readonly getTransaction: {
    readonly params: readonly [
      signature: string,
      { readonly encoding: "base64"; readonly maxSupportedTransactionVersion: 0; readonly commitment: Commitment }
    ]
    readonly result: unknown
  }
  /** The sandbox chain's own: its scenario's wallets. */
  readonly sandbox_wallets: {
    readonly params: readonly []
    readonly result: ReadonlyArray<{ readonly address: string; readonly role: string }>
  }
}

export type SolanaRpcMethod = keyof SolanaRpcMethods

export interface SolanaRpcRequest<M extends SolanaRpcMethod = SolanaRpcMethod> {
  readonly method: M
  readonly params: SolanaRpcMethods[M]["params"]
}

/** One answer of a batch: its result, or the JSON-RPC error the node answered it with. */
export type SolanaRpcAnswer<A> =
  | { readonly ok: true; readonly result: A }
  | { readonly ok: false; readonly code: number; readonly message: string }

/**
 * - `starting`: the RPC endpoint is not known yet (the chain is starting up) or no longer (shutting down)
 * - `rateLimited`: the node answered HTTP 429 (too many times in a row, or at once when the caller won't wait)
 * - `transport`: no usable answer: unreachable, timed out, an HTTP error without a JSON-RPC body
 * - `answer`: the node answered the call with a JSON-RPC error (`code`)
 */
export class SolanaRpcError extends Data.TaggedError("SolanaRpcError")<{
  readonly reason: "starting" | "rateLimited" | "transport" | "answer"
  readonly message: string
  readonly code?: number
}> {}

export interface SolanaRpcCallOptions {
  /**
   * After an HTTP 429 every caller waits out the node's Retry-After (default "wait"). A caller a
   * user is waiting on may rather "fail" at once, with reason `rateLimited`, and go without.
   */
  readonly whenRateLimited?: "wait" | "fail"
}

/** The Solana node's JSON-RPC over HTTP: one client for every adapter that reads the chain. */
export class SolanaRpc extends Context.Tag("SolanaRpc")<
  SolanaRpc,
  {
    readonly call: <M extends SolanaRpcMethod>(
      method: M,
      params: SolanaRpcMethods[M]["params"],
      options?: SolanaRpcCallOptions
    ) => Effect.Effect<SolanaRpcMethods[M]["result"], SolanaRpcError>
    /**
     * The answers in request order: one HTTP request when the node accepts batches, else single
     * calls. `decode` (given the request's index) turns each result into what the caller keeps as
     * soon as its answer is read, so that a large batch's parsed JSON is never held all at once.
     */
    readonly batch: <M extends SolanaRpcMethod, A = SolanaRpcMethods[M]["result"]>(
      requests: ReadonlyArray<SolanaRpcRequest<M>>,
      decode?: (result: SolanaRpcMethods[M]["result"], index: number) => A
    ) => Effect.Effect<ReadonlyArray<SolanaRpcAnswer<A>>, SolanaRpcError>
  }
>() {}
