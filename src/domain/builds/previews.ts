// Previews (spec §2.8, facts §10.6): estimates from projected state only, no RPC call and no user.
// Deposit shares are minted at the price of the keeper's processing, not today's; a withdrawal's
// value moves during its cooldown; user-specific conditions (balance, allowlist, pending requests,
// fee and timing overrides) are not checked. Numbers are null when the vault lacks the account
// they derive from.
import type { Address } from "@solana/kit"
import { Either } from "effect"
import {
  assetsFromShares,
  depositFee,
  estimateSharesForNetDeposit,
  resolveEffectiveFees,
  sharePrice,
  totalEquity,
  vaultValuation
} from "../../ntbundle/math.ts"
import type { ProjectionState, VaultView } from "../projection/state.ts"
import { vaultDepositRejection } from "./depositPolicy.ts"
import { UnknownVault } from "./errors.ts"
import { reason, type RejectionReason } from "./rejections.ts"
import type { DepositPreviewRequest, WithdrawPreviewRequest } from "./requests.ts"
import { estimateWithdrawal } from "./withdrawalEstimates.ts"

export interface PreviewContext {
  readonly state: ProjectionState
  readonly vaultAddress: Address
  /** Chain time, unix seconds. */
  readonly now: bigint
}

export interface DepositPreview {
  readonly vaultAddress: string
  readonly accepted: boolean
  readonly rejectionReasons: ReadonlyArray<RejectionReason>
  readonly grossAmountRaw: string
  readonly depositFeeBps: number
  readonly feeAmountRaw: string
  readonly netAmountRaw: string
  /** Asset units per 10^decimals shares, now. */
  readonly sharePriceRaw: string | null
  readonly estimatedSharesRaw: string | null
  /** Seconds until the keeper's next processing, when the vault's cadence is known. */
  readonly estimatedProcessingSeconds: number | null
  readonly estimatedProcessingTimestamp: number | null
  readonly estimate: true
}

export interface DepositPreviewInput extends PreviewContext {
  readonly request: DepositPreviewRequest
  /** The vault's processing cadence (e.g. 3600 for hourly); null when unknown. */
  readonly processingIntervalSeconds: number | null
}

/**
 * The next processing after `now`: the last netting plus whole intervals (or one interval from now
 * when the vault was never netted).
 */
const nextProcessing = (view: VaultView, now: bigint, intervalSeconds: number | null): bigint | null => {
  if (intervalSeconds === null || !Number.isSafeInteger(intervalSeconds) || intervalSeconds <= 0) return null
  const interval = BigInt(intervalSeconds)
  const last = view.temp?.lastNettingTimestamp ?? 0n
  if (last <= 0n || last > now) return now + interval
  return last + ((now - last) / interval + 1n) * interval
}

export const previewDeposit = (input: DepositPreviewInput): Either.Either<DepositPreview, UnknownVault> => {
  const view = input.state.vaults.get(input.vaultAddress)
  if (view === undefined) return Either.left(UnknownVault.at(input.vaultAddress))
  const { bundle, oracle } = view
  const amount = input.request.amount
  const depositFeeBps = resolveEffectiveFees(bundle, null).depositFeeBps
  const { feeAmount, netAmount } = depositFee(amount, depositFeeBps)
  const rejection = vaultDepositRejection(view, amount, netAmount)
  const valuation = oracle === null ? null : vaultValuation({ bundle, oracle })
  const processingAt = nextProcessing(view, input.now, input.processingIntervalSeconds)
  return Either.right({
    vaultAddress: input.vaultAddress,
    accepted: rejection === null,
    rejectionReasons: rejection === null ? [] : [rejection],
    grossAmountRaw: amount.toString(),
    depositFeeBps,
    feeAmountRaw: feeAmount.toString(),
    netAmountRaw: netAmount.toString(),
    sharePriceRaw: valuation === null ? null : sharePrice(valuation).toString(),
    estimatedSharesRaw: valuation === null ? null : estimateSharesForNetDeposit(valuation, netAmount).toString(),
    estimatedProcessingSeconds: processingAt === null ? null : Number(processingAt - input.now),
    estimatedProcessingTimestamp: processingAt === null ? null : Number(processingAt),
    estimate: true
  })
}

export interface WithdrawPreview {
  readonly vaultAddress: string
  readonly accepted: boolean
  readonly rejectionReasons: ReadonlyArray<RejectionReason>
  readonly sharesRaw: string | null
  readonly estimatedValueRaw: string | null
  readonly withdrawalFeeBps: number
  readonly feeAmountRaw: string | null
  readonly netAmountRaw: string | null
  readonly cooldownSeconds: number | null
  readonly estimatedAvailableTimestamp: number | null
  readonly estimate: true
}

export interface WithdrawPreviewInput extends PreviewContext {
  readonly request: WithdrawPreviewRequest
}

export const previewWithdraw = (input: WithdrawPreviewInput): Either.Either<WithdrawPreview, UnknownVault> => {
  const view = input.state.vaults.get(input.vaultAddress)
  if (view === undefined) return Either.left(UnknownVault.at(input.vaultAddress))
  const { bundle, oracle, temp } = view
  const withdrawalFeeBps = resolveEffectiveFees(bundle, null).withdrawalFeeBps
  const base = { vaultAddress: input.vaultAddress, withdrawalFeeBps, estimate: true } as const
  if (oracle === null) {
    return Either.right({
      ...base,
      accepted: false,
      rejectionReasons: [reason("ORACLE_DATA_NOT_FOUND", `no oracle account for ${view.address}`)],
      sharesRaw: "shares" in input.request ? input.request.shares.toString() : null,
      estimatedValueRaw: null,
      feeAmountRaw: null,
      netAmountRaw: null,
      cooldownSeconds: null,
      estimatedAvailableTimestamp: null
    })
  }
  const valuation = vaultValuation({ bundle, oracle })
  const equity = totalEquity({ bundle, oracle })
  const request = input.request
  // an amount becomes the shares it is worth now, rounded down like the builder does
  const shares =
    "shares" in request ? request.shares : equity === 0n ? 0n : (request.amount * valuation.totalShares) / equity
  const value = assetsFromShares(valuation, shares)
  const estimate = estimateWithdrawal(bundle, null, shares, value, input.now)

  const rejections: Array<RejectionReason> = []
  if (temp?.pausedDepositsWithdrawals === true) rejections.push(reason("VAULT_PAUSED", `deposits and withdrawals are paused on ${view.address}`))
  const exceedsVault = shares > valuation.totalShares || ("amount" in request && request.amount > equity)
  if (exceedsVault) {
    rejections.push(reason("WITHDRAWAL_EXCEEDS_VAULT", `the vault holds ${valuation.totalShares} shares worth ${equity}`))
  } else if (shares === 0n) {
    rejections.push(reason("WITHDRAWAL_SHARES_ZERO", "the requested amount corresponds to zero shares"))
  } else if (value === 0n) {
    rejections.push(reason("WITHDRAWAL_VALUE_TOO_SMALL", "the shares are currently worth nothing"))
  }
  return Either.right({
    ...base,
    accepted: rejections.length === 0,
    rejectionReasons: rejections,
    sharesRaw: shares.toString(),
    estimatedValueRaw: value.toString(),
    feeAmountRaw: estimate.feeAmount.toString(),
    netAmountRaw: estimate.netAmount.toString(),
    // the cooldown curve only holds up to the whole vault: beyond it there is no real wait to show
    cooldownSeconds: exceedsVault ? null : Number(estimate.cooldownSeconds),
    estimatedAvailableTimestamp: exceedsVault ? null : Number(estimate.availableAt)
  })
}
