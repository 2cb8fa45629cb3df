import { Schema } from "effect"
import type { VaultView } from "../../domain/projection/state.ts"
import { RawAmount } from "../amounts.ts"
import { Address } from "../schemas.ts"
import type { Position } from "./positionOf.ts"

/**
 * One pending request as the UserBundleAccount shows it (facts §10.8 shape). The account holds one
 * aggregate pending deposit and one pending withdrawal, so each list has at most one entry, always
 * at stage "requested" (later stages are visible only in the event log).
 */
const PendingRequest = Schema.Struct({
  stage: Schema.Literal("requested", "netted", "processed", "refunded"),
  /** Unix seconds; for deposits the last deposit's time, unknown (null) for withdrawals. */
  requestedAt: Schema.NullOr(Schema.Int),
  /** When the withdrawal's cooldown (and redemption cycle) ends; null for deposits. */
  cooldownEnd: Schema.NullOr(Schema.Int),
  /**
   * Estimate: the earliest time the keeper can process it (the cooldown end for withdrawals). Null
   * for deposits: the keeper's cadence is not known from chain.
   */
  etaProcessAt: Schema.NullOr(Schema.Int),
  amounts: Schema.Struct({
    net: Schema.optional(RawAmount),
    shares: Schema.optional(RawAmount),
    estimatedValue: Schema.optional(RawAmount)
  })
})

export const Pending = Schema.Struct({
  user: Address,
  /** The vault's base58 address (the real service's field name). */
  vaultId: Address,
  deposits: Schema.Array(PendingRequest),
  withdrawals: Schema.Array(PendingRequest)
}).annotations({ identifier: "PendingRequests" })
export type Pending = typeof Pending.Type

const timestamp = (value: bigint): number | null => (value > 0n ? Number(value) : null)

export const toPending = (view: VaultView, position: Position): Pending => {
  const { account } = position
  const cooldownEnd = timestamp(account.withdrawalAvailableTimestamp)
  return {
    user: account.owner,
    vaultId: view.address as Address,
    deposits: account.pendingDeposit === 0n ? [] : [{
      stage: "requested",
      requestedAt: timestamp(account.lastDepositTimestamp),
      cooldownEnd: null,
      etaProcessAt: null,
      amounts: { net: account.pendingDeposit.toString() }
    }],
    withdrawals: account.pendingShares === 0n ? [] : [{
      stage: "requested",
      requestedAt: null,
      cooldownEnd,
      etaProcessAt: cooldownEnd,
      amounts: {
        shares: account.pendingShares.toString(),
        estimatedValue: account.estimatedPendingWithdrawalValue.toString()
      }
    }]
  }
}
