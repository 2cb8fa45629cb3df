import { encodeBase58Bytes32 } from "../../ntbundle/base58.ts"
import { USER_BUNDLE_ACCOUNT_FIELDS } from "../../ntbundle/generated/accounts.ts"
import type { FeeAccrualPosition } from "../../ntbundle/math.ts"
import { fieldOffsets, offsetOf } from "./fixedLayout.ts"
import { readI128, readU128 } from "./wideInts.ts"

// The UserBundleAccount fields the indexes and the balance updates need, read in place from the raw
// bytes: decoding the whole 440-byte account for every update of a million positions would dominate
// the apply rate, and keeping decoded copies would dominate memory. The layout is fixed-size, and
// the projection only keeps positions of exactly that size (accountKind), so every field is there.
const offsets = fieldOffsets(USER_BUNDLE_ACCOUNT_FIELDS)
const OWNER_OFFSET = offsetOf(offsets, "owner")
const SHARES_OFFSET = offsetOf(offsets, "shares")
const PENDING_DEPOSIT_OFFSET = offsetOf(offsets, "pendingDeposit")
const HWM_PER_SHARE_OFFSET = offsetOf(offsets, "hwmPerShare")
const LAST_MANAGEMENT_FEE_OFFSET = offsetOf(offsets, "lastManagementFeeTimestamp")
const NET_DEPOSITS_OFFSET = offsetOf(offsets, "netDeposits")
const TOTAL_FEE_CHARGED_OFFSET = offsetOf(offsets, "totalFeeCharged")
const REFERRER_OFFSET = offsetOf(offsets, "referrer")

const viewOf = (data: Uint8Array): DataView => new DataView(data.buffer, data.byteOffset, data.byteLength)

export const readShares = (data: Uint8Array): bigint => readU128(viewOf(data), SHARES_OFFSET)

const isZeroKey = (data: Uint8Array, offset: number): boolean => {
  for (let i = offset; i < offset + 32; i++) if (data[i] !== 0) return false
  return true
}

/** Builders are few and bound to many users: one string per builder, looked up by its raw bytes. */
const internedKeys = new Map<string, string>()

const internedAddressAt = (data: Uint8Array, offset: number): string => {
  const raw = Buffer.from(data.buffer, data.byteOffset + offset, 32).toString("latin1")
  let text = internedKeys.get(raw)
  if (text === undefined) {
    text = encodeBase58Bytes32(data.subarray(offset, offset + 32))
    if (internedKeys.size < 100_000) internedKeys.set(raw, text)
  }
  return text
}

export const ownerBytes = (data: Uint8Array): Uint8Array => data.subarray(OWNER_OFFSET, OWNER_OFFSET + 32)

export const readOwner = (data: Uint8Array): string => encodeBase58Bytes32(ownerBytes(data))

const sameBytes = (a: Uint8Array, b: Uint8Array, offset: number, length: number): boolean => {
  for (let i = offset; i < offset + length; i++) if (a[i] !== b[i]) return false
  return true
}

/** Whether two versions of a position have the same owner and the same bound builder (or none). */
export const sameOwnerAndReferrer = (a: Uint8Array, b: Uint8Array): boolean =>
  sameBytes(a, b, OWNER_OFFSET, 32) && sameBytes(a, b, REFERRER_OFFSET, 32)

/** The bound builder's wallet, or null when none (the all-zero key). */
export const readReferrer = (data: Uint8Array): string | null =>
  isZeroKey(data, REFERRER_OFFSET) ? null : internedAddressAt(data, REFERRER_OFFSET)

/** What a balance shows of a position (besides its owner), and what its fee estimate needs. */
export interface PositionBalanceFields extends FeeAccrualPosition {
  readonly shares: bigint
  readonly pendingDeposit: bigint
  readonly netDeposits: bigint
  readonly totalFeeCharged: bigint
}

export const readBalanceFields = (data: Uint8Array): PositionBalanceFields => {
  const view = viewOf(data)
  return {
    shares: readU128(view, SHARES_OFFSET),
    pendingDeposit: view.getBigUint64(PENDING_DEPOSIT_OFFSET, true),
    hwmPerShare: readU128(view, HWM_PER_SHARE_OFFSET),
    lastManagementFeeTimestamp: view.getBigInt64(LAST_MANAGEMENT_FEE_OFFSET, true),
    netDeposits: readI128(view, NET_DEPOSITS_OFFSET),
    totalFeeCharged: view.getBigUint64(TOTAL_FEE_CHARGED_OFFSET, true)
  }
}
