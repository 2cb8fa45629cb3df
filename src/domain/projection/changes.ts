/**
 * What one applied account update changed, published to the WebSocket topics and history. A vault
 * change also moves the value of every position and cohort in it; consumers derive that.
 */
export type ProjectionChange =
  | { readonly _tag: "VaultChanged"; readonly vault: string }
  | { readonly _tag: "UserChanged"; readonly account: string; readonly owner: string; readonly vault: string | null }
  | {
    readonly _tag: "ReferrerChanged"
    readonly wallet: string
    readonly vault: string
    /** Set when a bound position moved the builder's cohort, not the builder's own ReferrerAccount. */
    readonly cohort?: true
  }
