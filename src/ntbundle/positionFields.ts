// The UserBundleAccount fields the transaction builders read, taken in place from the raw account
// bytes. The kit struct decoder reads all 27 fields (base58 of three keys, a copy of the padding)
// at ~50 µs an account; these reads cost about a microsecond. Offsets are the generated layout's
// (userBundleAccountCodec), after the 8-byte discriminator.
import type { Address } from "@solana/kit"
import { addressTextOf } from "./addressBytes.ts"
import type { UserBundleAccount } from "./accounts.ts"
import { USER_BUNDLE_ACCOUNT_DISCRIMINATOR, USER_BUNDLE_ACCOUNT_SIZE } from "./generated/accounts.ts"

/** What deposits, withdrawals and attribution look at in a position. */
export type PositionFields = Pick<
  UserBundleAccount,
  | "lastDepositTimestamp"
  | "shares"
  | "pendingDeposit"
  | "pendingShares"
  | "estimatedPendingWithdrawalValue"
  | "netDeposits"
  | "totalFeeCharged"
  | "customDepositFeeBps"
  | "customWithdrawalFeeBps"
  | "customPerformanceFeeBps"
  | "customManagementFeeBps"
  | "feeOverrideFlags"
  | "referrer"
>

const LAST_DEPOSIT_TIMESTAMP = 40
const SHARES = 48
const PENDING_DEPOSIT = 64
const PENDING_SHARES = 72
const ESTIMATED_PENDING_WITHDRAWAL_VALUE = 88
const NET_DEPOSITS = 152
const TOTAL_FEE_CHARGED = 168
const CUSTOM_DEPOSIT_FEE_BPS = 176
const CUSTOM_WITHDRAWAL_FEE_BPS = 180
const CUSTOM_PERFORMANCE_FEE_BPS = 184
const CUSTOM_MANAGEMENT_FEE_BPS = 188
const FEE_OVERRIDE_FLAGS = 192
/** The Borsh bool the full decoder refuses above 1: checked so both agree on what is decodable. */
const SWITCH_ACTIVE = 222
const REFERRER = 263

const hasDiscriminator = (data: Uint8Array): boolean => {
  for (let index = 0; index < USER_BUNDLE_ACCOUNT_DISCRIMINATOR.length; index++) {
    if (data[index] !== USER_BUNDLE_ACCOUNT_DISCRIMINATOR[index]) return false
  }
  return true
}

/**
 * The fields of a UserBundleAccount (discriminator included in `data`); null where the full
 * decoder fails: too short, another discriminator, or an invalid bool.
 */
export const readPositionFields = (data: Uint8Array): PositionFields | null => {
  if (data.length < USER_BUNDLE_ACCOUNT_SIZE || !hasDiscriminator(data) || data[SWITCH_ACTIVE]! > 1) return null
  const view = new DataView(data.buffer, data.byteOffset, data.byteLength)
  const u64 = (offset: number) => view.getBigUint64(offset, true)
  const u128 = (offset: number) => view.getBigUint64(offset, true) | (view.getBigUint64(offset + 8, true) << 64n)
  return {
    lastDepositTimestamp: view.getBigInt64(LAST_DEPOSIT_TIMESTAMP, true),
    shares: u128(SHARES),
    pendingDeposit: u64(PENDING_DEPOSIT),
    pendingShares: u128(PENDING_SHARES),
    estimatedPendingWithdrawalValue: u64(ESTIMATED_PENDING_WITHDRAWAL_VALUE),
    netDeposits: u64(NET_DEPOSITS) | (view.getBigInt64(NET_DEPOSITS + 8, true) << 64n),
    totalFeeCharged: u64(TOTAL_FEE_CHARGED),
    customDepositFeeBps: view.getUint32(CUSTOM_DEPOSIT_FEE_BPS, true),
    customWithdrawalFeeBps: view.getUint32(CUSTOM_WITHDRAWAL_FEE_BPS, true),
    customPerformanceFeeBps: view.getUint32(CUSTOM_PERFORMANCE_FEE_BPS, true),
    customManagementFeeBps: view.getUint32(CUSTOM_MANAGEMENT_FEE_BPS, true),
    feeOverrideFlags: data[FEE_OVERRIDE_FLAGS]!,
    // most positions have no referrer, and the few builders recur: the text memo serves both
    referrer: addressTextOf(data.subarray(REFERRER, REFERRER + 32)) as Address
  }
}
