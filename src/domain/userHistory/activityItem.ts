import type { UserEvent } from "./userEvent.ts"
import { bigOf, textOf } from "./eventFields.ts"

export type ActivityType =
  | "depositRequested"
  | "depositProcessed"
  | "depositRefunded"
  | "withdrawalRequested"
  | "withdrawalProcessed"
  | "feesCharged"
  | "switchRequested"
  | "switchCompleted"
  | "switchFellBackToWallet"

/** Raw amounts an activity carries (in the vault's asset; shares use the asset's decimals too). */
export interface ActivityAmounts {
  readonly gross?: bigint
  readonly fee?: bigint
  readonly net?: bigint
  readonly shares?: bigint
  readonly estimatedValue?: bigint
}

export interface ActivityItem {
  readonly type: ActivityType
  /** The vault; for a switch, its source. */
  readonly vault: string | null
  /** A switch's destination vault, else null. */
  readonly targetVault: string | null
  readonly amounts: ActivityAmounts
  /** The share price the program applied (processing, fees, switches), else null. */
  readonly sharePrice: bigint | null
}

/** Drops the amounts the event does not carry. */
const present = (amounts: Record<string, bigint | null>): ActivityAmounts =>
  Object.fromEntries(Object.entries(amounts).filter(([, value]) => value !== null)) as ActivityAmounts

const difference = (a: bigint | null, b: bigint | null) => (a === null || b === null ? null : a - b)

/** What a user event means to the user: its kind and amounts, from the event's own fields. */
export const activityOf = (event: UserEvent): ActivityItem => {
  const d = event.data
  const item = (type: ActivityType, amounts: Record<string, bigint | null>, sharePrice: bigint | null = null): ActivityItem => ({
    type,
    vault: event.vault,
    targetVault: null,
    amounts: present(amounts),
    sharePrice
  })
  const switchItem = (type: ActivityType, amounts: Record<string, bigint | null>, sharePrice: bigint | null = null): ActivityItem => ({
    type,
    vault: textOf(d, "sourceBundle"),
    targetVault: textOf(d, "targetBundle"),
    amounts: present(amounts),
    sharePrice
  })
  switch (event.name) {
    case "DepositRequested":
      return item("depositRequested", { gross: bigOf(d, "grossAmount"), fee: bigOf(d, "feeAmount"), net: bigOf(d, "netAmount") })
    case "Allocated":
      return item("depositProcessed", {
        net: bigOf(d, "netAmount"),
        shares: difference(bigOf(d, "userSharesAfter"), bigOf(d, "userSharesBefore"))
      }, bigOf(d, "sharePrice"))
    case "RefundedDeposit":
      return item("depositRefunded", { net: bigOf(d, "amount") })
    case "WithdrawalRequested":
      return item("withdrawalRequested", {
        shares: bigOf(d, "amount"),
        estimatedValue: bigOf(d, "estimatedPendingWithdrawalValue"),
        net: bigOf(d, "estimatedNetAmount")
      })
    case "Redeemed":
      return item("withdrawalProcessed", {
        gross: bigOf(d, "grossAmount"),
        fee: bigOf(d, "feeAmount"),
        net: bigOf(d, "netAmount"),
        shares: difference(bigOf(d, "userSharesBefore"), bigOf(d, "userSharesAfter"))
      }, bigOf(d, "sharePrice"))
    case "ChargedFeesToUser":
      return item("feesCharged", { fee: bigOf(d, "totalFeeValue"), shares: bigOf(d, "totalFeeShares") }, bigOf(d, "sharePrice"))
    case "BundleSwitchRequested":
      return switchItem("switchRequested", {
        shares: bigOf(d, "sharesAmount"),
        estimatedValue: bigOf(d, "estimatedGrossRedemption"),
        net: bigOf(d, "estimatedNetToDestination")
      })
    case "BundleSwitchCompleted": {
      const feeA = bigOf(d, "withdrawalFeeA")
      const feeB = bigOf(d, "depositFeeB")
      return switchItem("switchCompleted", {
        shares: bigOf(d, "sharesRedeemed"),
        gross: bigOf(d, "grossRedemption"),
        fee: feeA === null || feeB === null ? null : feeA + feeB,
        net: bigOf(d, "netCreditedToDestination")
      }, bigOf(d, "sharePrice"))
    }
    case "BundleSwitchFallbackToWallet":
      return switchItem("switchFellBackToWallet", {
        shares: bigOf(d, "sharesRedeemed"),
        gross: bigOf(d, "grossRedemption"),
        fee: bigOf(d, "withdrawalFeeA"),
        net: bigOf(d, "netToWallet")
      })
  }
}
