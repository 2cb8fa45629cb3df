import type { Address } from "@solana/kit"
import { Context, type Effect } from "effect"

/**
 * Token balances read from chain: the one RPC call on the build path (the deposit's
 * insufficient-balance check). Never fails: null when the node could not be asked.
 */
export class TokenBalances extends Context.Tag("TokenBalances")<
  TokenBalances,
  {
    /** Raw units in `owner`'s associated token account for `mint`; 0 when that account does not exist. */
    readonly ofAssociatedAccount: (owner: Address, mint: Address) => Effect.Effect<bigint | null>
  }
>() {}
