/** What the contract checker needs to know about the server under test to send requests that reach data. */
export interface ContractFixtures {
  /** Known good values by parameter or body property name (`vaultAddress`, `wallet`, `code`, `limit`...). */
  readonly values: Readonly<Record<string, ReadonlyArray<unknown>>>
  /** Per operation id, values that replace `values` (e.g. ids of keys that are safe to revoke). */
  readonly perOperation?: Readonly<Record<string, Readonly<Record<string, ReadonlyArray<unknown>>>>>
  /** Optional parameters valid requests leave out (e.g. `cursor`: only the server can make a valid one). */
  readonly omit?: ReadonlyArray<string>
  /** Valid bodies per operation id, for operations whose body schema is too open to generate one that passes. */
  readonly bodies?: Readonly<Record<string, ReadonlyArray<unknown>>>
  /** Well-formed values that name nothing on the server, by parameter name (an unknown vault address). */
  readonly unknown: Readonly<Record<string, ReadonlyArray<string>>>
  readonly credentials: {
    /** Partner keys that work. */
    readonly apiKeys: ReadonlyArray<string>
    /** Partner keys that were issued, then revoked. */
    readonly revokedApiKeys: ReadonlyArray<string>
    /** A `name=value` cookie of a live session for the operation (may sign in anew for one that ends it). */
    readonly cookie?: (operationId: string) => string | Promise<string>
    /** Cookies of sessions that have ended. */
    readonly endedCookies?: ReadonlyArray<string>
    /** The `Origin` state-changing requests must carry. */
    readonly origin?: string
  }
}
