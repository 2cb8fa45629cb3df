import { Schema } from "effect"
import type { UsdPrice } from "../../domain/usdPrice.ts"
import type { FlowRow } from "../../../services/CohortEventLog.ts"
import type { ProjectionState } from "../../domain/projection/state.ts"
import { Amount, amount, RawAmount } from "../amounts.ts"
import { Address } from "../schemas.ts"
import { assetOf } from "../vaults/toVaultRecord.ts"

/** One deposit, withdrawal or refund of a position bound to the builder (from the program's events). */
export const Flow = Schema.Struct({
  signature: Schema.String,
  /** Position of the event among the transaction's program events. */
  eventIndex: Schema.Int,
  user: Address,
  vault: Address,
  kind: Schema.Literal("deposit", "withdrawal", "refund"),
  /**
   * `requested`: the user's DepositRequested / WithdrawalRequested; `processed`: done by the keeper
   * (Allocated for a deposit, Redeemed for a withdrawal, RefundedDeposit for a refund), attributed to
   * the position owner of the `process_deposit` / `process_withdrawal` instruction that emitted it.
   */
  stage: Schema.Literal("requested", "processed"),
  /**
   * The gross deposit (requested: `gross_amount`; processed: Allocated's `amount`, the gross deposit
   * before the fee, not its `net_amount`), a processed withdrawal's gross redemption (Redeemed's
   * `gross_amount`), the refunded amount, or for a withdrawal request the program's estimate of its
   * value at request time (`estimated: true`); null when the vault is no longer projected.
   */
  amount: Schema.NullOr(Amount),
  estimated: Schema.Boolean,
  /** Shares a withdrawal request asked to redeem; null for deposits, refunds and processed withdrawals. */
  shares: Schema.NullOr(RawAmount),
  slot: Schema.Int,
  /** Unix seconds: the block time of the transaction, else the program's clock in the event. */
  time: Schema.Int
}).annotations({ identifier: "ReferrerFlow" })
export type Flow = typeof Flow.Type

export const FlowPage = Schema.Struct({
  referrer: Address,
  /** Newest first: slot, then signature, then event index, all descending. */
  flows: Schema.Array(Flow),
  nextCursor: Schema.NullOr(Schema.String)
}).annotations({ identifier: "ReferrerFlowPage" })

export const toFlow = (row: FlowRow, state: ProjectionState, priceOf: (mint: string) => UsdPrice | null): Flow => {
  const view = state.vaults.get(row.vault)
  const asset = view === undefined ? null : assetOf(view)
  return {
    signature: row.signature,
    eventIndex: row.eventIndex,
    user: row.wallet as Address,
    vault: row.vault as Address,
    kind: row.kind,
    stage: row.stage,
    amount: asset === null ? null : amount(row.amount, asset.decimals, priceOf(asset.mint)?.usd ?? null),
    estimated: row.estimated,
    shares: row.shares === null ? null : row.shares.toString(),
    slot: row.slot,
    time: row.blockTime ?? Number(row.timestamp)
  }
}
