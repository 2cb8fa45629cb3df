import { Either } from "effect"
import { asPlainBytes, toHex } from "./bytes.ts"
import { decodeAt, type DecodeError, decodeError } from "./errors.ts"
import {
  ACCOUNT_LAYOUTS,
  type AccountDataByType,
  BUNDLE_CREATOR_ACCOUNT_SIZE,
  BUNDLE_MASTER_ACCOUNT_SIZE,
  BUNDLE_MIN_SIZE,
  BUNDLE_TEMP_DATA_SIZE,
  ORACLE_DATA_SIZE,
  REFERRER_ACCOUNT_SIZE,
  STRATEGY_SIZE,
  USER_BUNDLE_ACCOUNT_SIZE
} from "./generated/accounts.ts"
import type { AccountLayout } from "./generated/types.ts"

export type * from "./generated/accounts.ts"
export type { ReferralTier } from "./generated/types.ts"
export {
  BUNDLE_CREATOR_ACCOUNT_SIZE,
  BUNDLE_MASTER_ACCOUNT_SIZE,
  BUNDLE_TEMP_DATA_SIZE,
  ORACLE_DATA_SIZE,
  REFERRER_ACCOUNT_SIZE,
  STRATEGY_SIZE,
  USER_BUNDLE_ACCOUNT_SIZE
}

/** IDL PascalCase account type name, e.g. `"UserBundleAccount"`. */
export type AccountType = keyof AccountDataByType

/** A decoded ntbundle account: its type name and its data (the fields after the discriminator). */
export type NtAccount = {
  readonly [K in AccountType]: { readonly type: K; readonly data: AccountDataByType[K] }
}[AccountType]

const DISCRIMINATOR_LENGTH = 8
const ADDRESS_LENGTH = 32

/** Size of a Bundle account with `receivers` allocated receivers: 557 + 32·N bytes. */
export const bundleSize = (receivers: number): number => BUNDLE_MIN_SIZE + ADDRESS_LENGTH * receivers

const accountTypes = Object.keys(ACCOUNT_LAYOUTS) as Array<AccountType>

export const ACCOUNT_DISCRIMINATORS: { readonly [K in AccountType]: Uint8Array } = Object.fromEntries(
  accountTypes.map((type) => [type, ACCOUNT_LAYOUTS[type].discriminator])
) as { readonly [K in AccountType]: Uint8Array }

const typeByDiscriminator: ReadonlyMap<string, AccountType> = new Map(
  accountTypes.map((type) => [toHex(ACCOUNT_LAYOUTS[type].discriminator), type])
)

// `type` and `data` are correlated in NtAccount, which TypeScript cannot follow through an indexed
// access; this is the one place that widens a layout to the union of all account data.
const layoutOf = (type: AccountType): AccountLayout<NtAccount["data"]> =>
  ACCOUNT_LAYOUTS[type] as AccountLayout<NtAccount["data"]>

const readDiscriminator = (data: Uint8Array): Either.Either<string, DecodeError> =>
  data.length < DISCRIMINATOR_LENGTH
    ? Either.left(decodeError("TOO_SHORT", `account data has ${data.length} bytes, less than a discriminator`))
    : Either.right(toHex(data.subarray(0, DISCRIMINATOR_LENGTH)))

const decodeBody = <K extends AccountType>(type: K, data: Uint8Array): Either.Either<AccountDataByType[K], DecodeError> => {
  const layout: AccountLayout<AccountDataByType[K]> = ACCOUNT_LAYOUTS[type]
  if (layout.size !== null && data.length < layout.size) {
    return Either.left(decodeError("TOO_SHORT", `${type} needs ${layout.size} bytes, got ${data.length}`))
  }
  return decodeAt(type, layout.codec, data, DISCRIMINATOR_LENGTH)
}

/**
 * Decodes any ntbundle account by its discriminator. Reads sequentially and ignores trailing
 * bytes (a Bundle's allocated size may exceed its layout); fixed-size accounts must be at least
 * their size. Never throws.
 */
export const decodeAccount = (bytes: Uint8Array): Either.Either<NtAccount, DecodeError> => {
  const data = asPlainBytes(bytes)
  return Either.flatMap(readDiscriminator(data), (discriminator) => {
    const type = typeByDiscriminator.get(discriminator)
    if (type === undefined) {
      return Either.left(decodeError("UNKNOWN_DISCRIMINATOR", `no ntbundle account has discriminator ${discriminator}`))
    }
    return Either.map(decodeBody(type, data), (decoded) => ({ type, data: decoded }) as NtAccount)
  })
}

/** Full account data: discriminator then Borsh fields. Throws on out-of-range or wrong-length values. */
export const encodeAccount = (account: NtAccount): Uint8Array => {
  const layout = layoutOf(account.type)
  const body = layout.codec.encode(account.data)
  const data = new Uint8Array(DISCRIMINATOR_LENGTH + body.length)
  data.set(layout.discriminator, 0)
  data.set(body, DISCRIMINATOR_LENGTH)
  return data
}

const decoderFor = <K extends AccountType>(type: K) => {
  const expected = toHex(ACCOUNT_LAYOUTS[type].discriminator)
  return (bytes: Uint8Array): Either.Either<AccountDataByType[K], DecodeError> => {
    const data = asPlainBytes(bytes)
    return Either.flatMap(readDiscriminator(data), (discriminator) =>
      discriminator === expected
        ? decodeBody(type, data)
        : Either.left(decodeError("UNKNOWN_DISCRIMINATOR", `expected a ${type} discriminator, got ${discriminator}`))
    )
  }
}

const encoderFor =
  <K extends AccountType>(type: K) =>
  (data: AccountDataByType[K]): Uint8Array =>
    encodeAccount({ type, data } as NtAccount)

export const decodeBundle = decoderFor("Bundle")
export const decodeUserBundleAccount = decoderFor("UserBundleAccount")
export const decodeReferrerAccount = decoderFor("ReferrerAccount")
export const decodeOracleData = decoderFor("OracleData")
export const decodeBundleTempData = decoderFor("BundleTempData")
export const decodeStrategy = decoderFor("Strategy")
export const decodeBundleMasterAccount = decoderFor("BundleMasterAccount")
export const decodeBundleCreatorAccount = decoderFor("BundleCreatorAccount")

export const encodeBundle = encoderFor("Bundle")
export const encodeUserBundleAccount = encoderFor("UserBundleAccount")
export const encodeReferrerAccount = encoderFor("ReferrerAccount")
export const encodeOracleData = encoderFor("OracleData")
export const encodeBundleTempData = encoderFor("BundleTempData")
export const encodeStrategy = encoderFor("Strategy")
export const encodeBundleMasterAccount = encoderFor("BundleMasterAccount")
export const encodeBundleCreatorAccount = encoderFor("BundleCreatorAccount")
