/** A recent blockhash as the chain reported it: the lifetime given to every build. */
export interface LatestBlockhash {
  readonly blockhash: string
  /** The transaction is refused once the chain's block height passes this. */
  readonly lastValidBlockHeight: number
  /** Context slot of the RPC answer. */
  readonly slot: number
}
