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

// Looked up by the discriminator's first four bytes, then compared whole: this runs for every
// account of a million-position restore, so it allocates nothing.
const firstWord = (data: Uint8Array): number => (data[0]! | (data[1]! << 8) | (data[2]! << 16) | (data[3]! << 24)) >>> 0

const INDEXED = ["Bundle", "UserBundleAccount", "ReferrerAccount", "OracleData", "BundleTempData"]

const kindsByFirstWord = new Map<number, Array<{ readonly discriminator: Uint8Array; readonly kind: Exclude<AccountKind, "Unrecognised"> }>>()
for (const [type, discriminator] of Object.entries(ACCOUNT_DISCRIMINATORS)) {
  const kind = INDEXED.includes(type) ? (type as Exclude<AccountKind, "Other" | "Unrecognised">) : "Other"
  const candidates = kindsByFirstWord.get(firstWord(discriminator)) ?? []
  candidates.push({ discriminator, kind })
  kindsByFirstWord.set(firstWord(discriminator), candidates)
}

const kindOfDiscriminator = (data: Uint8Array): Exclude<AccountKind, "Unrecognised"> | undefined => {
  for (const candidate of kindsByFirstWord.get(firstWord(data)) ?? []) {
    let same = true
    for (let i = 4; i < 8 && same; i++) same = data[i] === candidate.discriminator[i]
    if (same) return candidate.kind
  }
  return undefined
}

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
  const kind = kindOfDiscriminator(data)
  if (kind === undefined) return "Unrecognised"
  if (kind === "Bundle") return bundleSizeFits(data) ? kind : "Unrecognised"
  const size = FIXED_SIZES[kind]
  return size === undefined || data.length === size ? kind : "Unrecognised"
}
