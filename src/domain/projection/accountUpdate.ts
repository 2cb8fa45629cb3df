/** An account as the chain showed it at a slot: what the projection state applies. */
export interface AccountUpdate {
  readonly address: string
  readonly owner: string
  readonly slot: number
  /** Empty when the account was closed. */
  readonly data: Uint8Array
}
