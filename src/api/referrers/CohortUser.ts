import { Schema } from "effect"
import type { Binding } from "../../../services/CohortEventLog.ts"
import type { UsdPrice } from "../../domain/usdPrice.ts"
import type { ProjectionState } from "../../domain/projection/state.ts"
import type { CohortMember } from "../../domain/reporting/cohortPage.ts"
import { valuationOf } from "../../domain/vaultValuation.ts"
import { assetsFromShares } from "../../ntbundle/math.ts"
import { Amount, amount, TokenQuantity, tokenQuantity } from "../amounts.ts"
import { Address } from "../schemas.ts"
import { readCohortFields } from "../../domain/reporting/cohortFields.ts"
import { assetOf } from "../vaults/toVaultRecord.ts"

/**
 * The rates the program recorded when the position was bound (`UserReferrerSet`). Historical only:
 * accrual always uses the builder's live effective rate (see the summary's currentTier).
 */
export const BindTimeRates = Schema.Struct({
  referralPfeeBps: Schema.Int,
  referralMfeeBps: Schema.Int,
  /** The builder's tier index at binding; null below the first tier or with override rates. */
  referralTierIndex: Schema.NullOr(Schema.Int)
}).annotations({
  identifier: "ReferrerBindTimeRates",
  description: "historical: the referral rates recorded at binding; they do not determine current accrual"
})

/** One bound position of the builder's cohort (shares use the asset's decimals). */
export const CohortUser = Schema.Struct({
  /** The UserBundleAccount address: the page order. */
  position: Address,
  user: Address,
  vault: Address,
  shares: TokenQuantity,
  /** Mark-to-market of the shares; null until the vault's oracle account is seen. */
  value: Schema.NullOr(Amount),
  /** Lifetime deposits − withdrawals of the position (signed). */
  netDeposits: TokenQuantity,
  pendingDeposit: TokenQuantity,
  /** Unix seconds of the position's last deposit; null before its first. */
  lastDepositAt: Schema.NullOr(Schema.Int),
  /** Unix seconds of the binding (`UserReferrerSet`: block time, else the program's clock); null unless `binding` is "recorded". */
  firstAttributedAt: Schema.NullOr(Schema.Int),
  /** Slot of the binding transaction; null unless `binding` is "recorded". */
  attributedSlot: Schema.NullOr(Schema.Int),
  /** Historical rates recorded at binding (not the live rates); null unless `binding` is "recorded". */
  bindTimeRates: Schema.NullOr(BindTimeRates),
  /**
   * Whether the binding event is known: "recorded" (fields above set); "backfilling" (the program's
   * history is still being loaded; retry later); "not_recorded" (the event log holds no binding for
   * this position: it predates the configured history start, or its transaction is still being
   * written, which takes seconds).
   */
  binding: Schema.Literal("recorded", "backfilling", "not_recorded")
}).annotations({ identifier: "ReferrerCohortUser" })
export type CohortUser = typeof CohortUser.Type

export const CohortUserPage = Schema.Struct({
  referrer: Address,
  /** By position (UserBundleAccount) address ascending (base58 text, byte-wise order), across vaults. */
  users: Schema.Array(CohortUser),
  nextCursor: Schema.NullOr(Schema.String)
}).annotations({ identifier: "ReferrerCohortUserPage" })

/** The member's position as the projection holds it, or null if it vanished from under the index. */
export const toCohortUser = (
  state: ProjectionState,
  member: CohortMember,
  priceOf: (mint: string) => UsdPrice | null,
  binding: Binding | "backfilling" | "not_recorded"
): CohortUser | null => {
  const view = state.vaults.get(member.vault)
  const raw = state.accounts.get(member.position)
  const account = raw?.kind === "UserBundleAccount" ? readCohortFields(raw.data) : null
  if (view === undefined || account === null) return null
  const asset = assetOf(view)
  const valuation = valuationOf(view)
  return {
    position: member.position as Address,
    user: account.owner as Address,
    vault: member.vault as Address,
    shares: tokenQuantity(account.shares, asset.decimals),
    value: valuation === null ? null : amount(assetsFromShares(valuation, account.shares), asset.decimals, priceOf(asset.mint)?.usd ?? null),
    netDeposits: tokenQuantity(account.netDeposits, asset.decimals),
    pendingDeposit: tokenQuantity(account.pendingDeposit, asset.decimals),
    lastDepositAt: account.lastDepositTimestamp > 0n ? Number(account.lastDepositTimestamp) : null,
    ...(typeof binding === "string"
      ? { firstAttributedAt: null, attributedSlot: null, bindTimeRates: null, binding }
      : {
        firstAttributedAt: binding.time,
        attributedSlot: binding.slot,
        bindTimeRates: {
          referralPfeeBps: binding.referralPfeeBps,
          referralMfeeBps: binding.referralMfeeBps,
          referralTierIndex: binding.referralTierIndex
        },
        binding: "recorded" as const
      })
  }
}
