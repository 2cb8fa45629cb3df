import { Schema } from "effect"
import type { UsdPrice } from "../../domain/usdPrice.ts"
import type { ProjectionState } from "../../domain/projection/state.ts"
import type { PayoutRow } from "../../../services/ReferrerPayouts.ts"
import { Amount, amount, RawAmount } from "../amounts.ts"
import { Address } from "../schemas.ts"
import { assetOf } from "../vaults/toVaultRecord.ts"
import { AssetInfo } from "../vaults/VaultRecord.ts"

/** One settled builder claim (the program's `ReferrerWithdrawalProcessed`). */
export const Payout = Schema.Struct({
  /** The settling transaction. */
  signature: Schema.String,
  vault: Address,
  slot: Schema.Int,
  /** Unix seconds: the block time of the settlement, else the program's clock in the event. */
  settledAt: Schema.Int,
  /** The vault's asset; null when the vault is no longer in the projection. */
  asset: Schema.NullOr(AssetInfo),
  sharesRedeemed: RawAmount,
  /** The asset amount paid out, raw. */
  amount: RawAmount,
  /** `amount` as `{raw, token, usd}`; null when the vault (so its decimals) is unknown. */
  value: Schema.NullOr(Amount)
}).annotations({ identifier: "ReferrerPayout" })
export type Payout = typeof Payout.Type

export const PayoutPage = Schema.Struct({
  referrer: Address,
  /** Newest first: slot, then signature, then event index, all descending. */
  payouts: Schema.Array(Payout),
  nextCursor: Schema.NullOr(Schema.String)
}).annotations({ identifier: "ReferrerPayoutPage" })

export const toPayout = (row: PayoutRow, state: ProjectionState, priceOf: (mint: string) => UsdPrice | null): Payout => {
  const view = state.vaults.get(row.vault)
  const asset = view === undefined ? null : assetOf(view)
  return {
    signature: row.signature,
    vault: row.vault as Address,
    slot: row.slot,
    settledAt: row.blockTime ?? Number(row.timestamp),
    asset,
    sharesRedeemed: row.sharesRedeemed.toString(),
    amount: row.redemptionAmount.toString(),
    value: asset === null ? null : amount(row.redemptionAmount, asset.decimals, priceOf(asset.mint)?.usd ?? null)
  }
}
