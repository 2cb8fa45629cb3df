import { Schema } from "effect"
import type { VaultView } from "../../domain/projection/state.ts"
import {
  depositRequest,
  type LoggedRequestEvent,
  type RequestAmounts,
  type RequestState,
  SETTLED_VISIBLE_SECONDS,
  withdrawalContext,
  withdrawalRequest
} from "../../domain/pendingRequests.ts"
import { RawAmount } from "../amounts.ts"
import { Address } from "../schemas.ts"
import type { Position } from "./positionOf.ts"

const optionalAmount = (description: string) => Schema.optional(RawAmount.annotations({ description }))

/** One request and its stage (facts §10.8 shape, plus `settledAt`). */
const PendingRequest = Schema.Struct({
  stage: Schema.Literal("requested", "netted", "processed", "refunded").annotations({
    description:
      "From the chain. Deposit: requested (tokens in the vault's pending account) -> netted (the keeper moved this cycle's " +
      "pending deposits into the vault; BundleTempData.is_netting_done) -> processed (shares minted, Allocated) or refunded " +
      "(RefundedDeposit). Withdrawal: requested (shares locked) -> processed (Redeemed); the program does not net withdrawals. " +
      `A processed or refunded request stays listed for ${SETTLED_VISIBLE_SECONDS} s of chain time unless a newer request replaces it.`
  }),
  requestedAt: Schema.Int.annotations({
    description:
      "Unix seconds of the request (the first one, for a deposit topped up while pending), from its event. Where the stored " +
      "history does not hold it: a deposit's last request time (the account's last_deposit_timestamp), or a withdrawal's " +
      "availability time minus the cooldown the vault's curve gives now (an estimate)."
  }),
  settledAt: Schema.NullOr(Schema.Int).annotations({ description: "Unix seconds of processing or refund; null while open" }),
  cooldownEnd: Schema.NullOr(Schema.Int).annotations({
    description: "Open withdrawal: when its cooldown (and redemption cycle) ends (withdrawal_available_timestamp); else null"
  }),
  etaProcessAt: Schema.NullOr(Schema.Int).annotations({
    description:
      "Estimate: the earliest time the keeper may process an open withdrawal (the program's availability time, which " +
      "includes the vault's redemption schedule). Null for deposits (the keeper's deposit cadence is not on chain) and " +
      "for settled requests."
  }),
  amounts: Schema.Struct({
    gross: optionalAmount("Deposit: the gross amount requested (DepositRequested), when the stored requests add up to the " +
      "pending net amount; processed withdrawal: value redeemed before the fee"),
    fee: optionalAmount("Deposit fee paid at request, or withdrawal fee charged at processing"),
    net: optionalAmount("Deposit: amount after the fee (pending_deposit on chain while open); processed withdrawal: paid to the wallet"),
    shares: optionalAmount("Withdrawal: shares redeemed (pending_shares while open); processed deposit: shares minted"),
    estimatedValue: optionalAmount("Open withdrawal: the program's estimate of its value at request (estimated_pending_withdrawal_value)")
  })
}).annotations({ identifier: "PendingRequest" })

export const Pending = Schema.Struct({
  user: Address,
  /** The vault's base58 address (the real service's field name). */
  vaultId: Address,
  deposits: Schema.Array(PendingRequest),
  withdrawals: Schema.Array(PendingRequest)
}).annotations({ identifier: "PendingRequests" })
export type Pending = typeof Pending.Type

const amountsJson = (amounts: RequestAmounts) =>
  Object.fromEntries(Object.entries(amounts).flatMap(([key, value]) => (value === undefined ? [] : [[key, value.toString()]])))

const toWire = (request: RequestState | null) =>
  request === null ? [] : [{ ...request, amounts: amountsJson(request.amounts) }]

/** The position's requests at chain time `now`, from its account, the vault's temp data and its logged request events. */
export const toPending = (view: VaultView, position: Position, events: ReadonlyArray<LoggedRequestEvent>, now: number): Pending => {
  const { account } = position
  return {
    user: account.owner,
    vaultId: view.address as Address,
    deposits: toWire(depositRequest(account, view.temp, events, now)),
    withdrawals: toWire(withdrawalRequest(account, withdrawalContext(view.bundle), events, now))
  }
}
