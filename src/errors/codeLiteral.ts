import { Schema } from "effect"
import type { HttpErrorCode } from "./codes.ts"

/**
 * The `code` field of an error class: a literal of registry codes, so a code the registry does not
 * declare does not type-check.
 */
export const codeLiteral = <const Codes extends readonly [HttpErrorCode, ...Array<HttpErrorCode>]>(
  ...codes: Codes
) => Schema.Literal(...codes)
