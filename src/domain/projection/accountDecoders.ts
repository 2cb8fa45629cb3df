import { decodeBundle, decodeUserBundleAccount } from "../../ntbundle/accounts.ts"
import { BUNDLE_DISCRIMINATOR, BUNDLE_FIELDS, USER_BUNDLE_ACCOUNT_DISCRIMINATOR, USER_BUNDLE_ACCOUNT_FIELDS } from "../../ntbundle/generated/accounts.ts"
import { fieldDecoder } from "./fieldDecoder.ts"

/** `decodeBundle`, reading well-formed data in place (see fieldDecoder). */
export const decodeBundleFast = fieldDecoder(BUNDLE_DISCRIMINATOR, BUNDLE_FIELDS, decodeBundle)

/** `decodeUserBundleAccount`, reading well-formed data in place (see fieldDecoder). */
export const decodeUserBundleAccountFast = fieldDecoder(USER_BUNDLE_ACCOUNT_DISCRIMINATOR, USER_BUNDLE_ACCOUNT_FIELDS, decodeUserBundleAccount)
