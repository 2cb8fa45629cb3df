import { decodeBundle } from "../../ntbundle/accounts.ts"
import { BUNDLE_DISCRIMINATOR, BUNDLE_FIELDS } from "../../ntbundle/generated/accounts.ts"
import { fieldDecoder } from "./fieldDecoder.ts"

/** `decodeBundle`, reading well-formed data in place (see fieldDecoder). */
export const decodeBundleFast = fieldDecoder(BUNDLE_DISCRIMINATOR, BUNDLE_FIELDS, decodeBundle)
