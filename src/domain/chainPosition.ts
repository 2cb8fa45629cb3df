/**
 * A position on the chain: the slot a piece of state reflects and that slot's block time (unix
 * seconds; null when the node did not report one). Slots stay below 2^53 for millennia, so they are
 * plain numbers; token amounts are never numbers.
 */
export interface AsOf {
  readonly slot: number
  readonly blockTime: number | null
}
