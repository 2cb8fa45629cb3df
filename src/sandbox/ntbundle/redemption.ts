import type { BundleView, ReferrerView, TempDataView, UserBundleView } from "./layout.ts"

export interface RedemptionShares {
  readonly totalSharesBefore: bigint
  readonly userSharesBefore: bigint
}

/**
 * The bookkeeping shared by process_withdrawal and process_switch once a position's pending
 * shares are redeemed for `gross`: the shares leave the vault, the position's pending state is
 * cleared, the referrer's net deposits fall, and the vault's pending-withdrawal count drops.
 * Returns the share counts before, which both events report.
 */
export const settleRedemption = (
  bundle: BundleView,
  temp: TempDataView,
  user: UserBundleView,
  referrer: ReferrerView | null,
  redeemed: { readonly shares: bigint; readonly gross: bigint; readonly now: bigint }
): RedemptionShares => {
  const before = { totalSharesBefore: bundle.totalShares, userSharesBefore: user.shares + redeemed.shares }
  bundle.bundleUnderlyingBalance -= redeemed.gross
  bundle.totalShares -= redeemed.shares
  user.pendingShares = 0n
  user.estimatedPendingWithdrawalValue = 0n
  user.withdrawalAvailableTimestamp = 0n
  user.lastWithdrawalProcessTimestamp = redeemed.now
  user.netDeposits -= redeemed.gross
  if (referrer !== null) referrer.referredNetDeposits -= redeemed.gross
  if (temp.pendingWithdrawalsCounter > 0n) temp.pendingWithdrawalsCounter -= 1n
  return before
}
