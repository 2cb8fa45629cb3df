import {
  ACCOUNT_DISCRIMINATORS,
  BUNDLE_TEMP_DATA_SIZE,
  bundleSize,
  ORACLE_DATA_SIZE,
  REFERRER_ACCOUNT_SIZE,
  USER_BUNDLE_ACCOUNT_SIZE
} from "../../ntbundle/accounts.ts"

/** What the projection does with a program account, decided from its discriminator and size. */
export type AccountKind =
  | "Bundle"
  | "UserBundleAccount"
  | "ReferrerAccount"
  | "OracleData"
  | "BundleTempData"
  /** A known ntbundle type the projection keeps raw but does not index (Strategy, admin accounts). */
  | "Other"
  /** Unknown discriminator, or a known one with a size its layout cannot have: never decoded. */
  | "Unrecognised"

const discriminatorKey = (data: Uint8Array, offset = 0): string =>
  String.fromCharCode(...data.subarray(offset, offset + 8))

const kindByDiscriminator = new Map<string, Exclude<AccountKind, "Unrecognised">>(
  Object.entries(ACCOUNT_DISCRIMINATORS).map(([type, bytes]) => {
    const indexed = ["Bundle", "UserBundleAccount", "ReferrerAccount", "OracleData", "BundleTempData"]
    return [discriminatorKey(bytes), indexed.includes(type) ? (type as Exclude<AccountKind, "Other" | "Unrecognised">) : "Other"]
  })
)

const RECEIVERS_OFFSET = 136

const bundleSizeFits = (data: Uint8Array): boolean => {
  if (data.length < bundleSize(0)) return false
  const view = new DataView(data.buffer, data.byteOffset, data.byteLength)
  const receivers = view.getUint32(RECEIVERS_OFFSET, true)
  return receivers <= 1024 && data.length >= bundleSize(receivers)
}

const FIXED_SIZES: Partial<Record<AccountKind, number>> = {
  UserBundleAccount: USER_BUNDLE_ACCOUNT_SIZE,
  ReferrerAccount: REFERRER_ACCOUNT_SIZE,
  OracleData: ORACLE_DATA_SIZE,
  BundleTempData: BUNDLE_TEMP_DATA_SIZE
}

export const accountKind = (data: Uint8Array): AccountKind => {
  if (data.length < 8) return "Unrecognised"
  const kind = kindByDiscriminator.get(discriminatorKey(data))
  if (kind === undefined) return "Unrecognised"
  if (kind === "Bundle") return bundleSizeFits(data) ? kind : "Unrecognised"
  const size = FIXED_SIZES[kind]
  return size === undefined || data.length === size ? kind : "Unrecognised"
}
