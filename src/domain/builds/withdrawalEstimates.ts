import type { Bundle } from "../../ntbundle/accounts.ts"
import { bundleCooldownCurve, cooldownSeconds, resolveEffectiveFees, withdrawalAvailableAt } from "../../ntbundle/math.ts"
import type { PositionFields } from "../../ntbundle/positionFields.ts"

export interface WithdrawalEstimate {
  readonly withdrawalFeeBps: number
  readonly feeAmount: bigint
  readonly netAmount: bigint
  readonly cooldownSeconds: bigint
  readonly availableAt: bigint
}

/**
 * Fee, cooldown and availability of withdrawing `shares` worth `value` now. The withdrawal fee is
 * taken at processing and rounded up like the deposit fee (inferred; the program's rounding is
 * not documented). Per-user timing overrides are ignored: their flag bits are undocumented.
 */
export const estimateWithdrawal = (
  bundle: Bundle,
  position: PositionFields | null,
  shares: bigint,
  value: bigint,
  now: bigint
): WithdrawalEstimate => {
  const withdrawalFeeBps = resolveEffectiveFees(bundle, position).withdrawalFeeBps
  const feeAmount = (value * BigInt(withdrawalFeeBps) + 9_999n) / 10_000n
  const cooldown = cooldownSeconds(bundleCooldownCurve(bundle), shares, bundle.totalShares)
  return {
    withdrawalFeeBps,
    feeAmount,
    netAmount: value - feeAmount,
    cooldownSeconds: cooldown,
    availableAt: withdrawalAvailableAt(now, cooldown, bundle)
  }
}
