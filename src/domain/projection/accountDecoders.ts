import { decodeBundle, decodeBundleTempData, decodeOracleData, decodeReferrerAccount, decodeUserBundleAccount } from "../../ntbundle/accounts.ts"
import {
  BUNDLE_DISCRIMINATOR,
  BUNDLE_FIELDS,
  BUNDLE_TEMP_DATA_DISCRIMINATOR,
  BUNDLE_TEMP_DATA_FIELDS,
  ORACLE_DATA_DISCRIMINATOR,
  ORACLE_DATA_FIELDS,
  REFERRER_ACCOUNT_DISCRIMINATOR,
  REFERRER_ACCOUNT_FIELDS,
  USER_BUNDLE_ACCOUNT_DISCRIMINATOR,
  USER_BUNDLE_ACCOUNT_FIELDS
} from "../../ntbundle/generated/accounts.ts"
import { fieldDecoder } from "./fieldDecoder.ts"

// The account decoders of accounts.ts, reading well-formed data in place (see fieldDecoder).
export const decodeBundleFast = fieldDecoder(BUNDLE_DISCRIMINATOR, BUNDLE_FIELDS, decodeBundle)
export const decodeUserBundleAccountFast = fieldDecoder(USER_BUNDLE_ACCOUNT_DISCRIMINATOR, USER_BUNDLE_ACCOUNT_FIELDS, decodeUserBundleAccount)
export const decodeBundleTempDataFast = fieldDecoder(BUNDLE_TEMP_DATA_DISCRIMINATOR, BUNDLE_TEMP_DATA_FIELDS, decodeBundleTempData)
export const decodeOracleDataFast = fieldDecoder(ORACLE_DATA_DISCRIMINATOR, ORACLE_DATA_FIELDS, decodeOracleData)
export const decodeReferrerAccountFast = fieldDecoder(REFERRER_ACCOUNT_DISCRIMINATOR, REFERRER_ACCOUNT_FIELDS, decodeReferrerAccount)
