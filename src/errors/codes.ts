import registry from "./codes.json" with { type: "json" }

/**
 * Every machine code the service puts on the wire is declared once, in codes.json (one code a line).
 * Append-only: add new codes at the end, never rename, remove or re-mean one (clients match on them);
 * test/errors/codes.test.ts pins the table and the README's error-code section is generated from it
 * (scripts/gen-error-codes.ts).
 *
 * What an entry says about where its code goes on the wire:
 * - `status`: the `error` of an HTTP error answer `{success:false, error, message}`, with this status.
 *   This is the one place that maps codes to HTTP statuses.
 * - `ws`: the `code` of a WebSocket `error` frame.
 * - `rejection`: a `validation.rejectionReasons[].code` of a build or preview refused by policy
 *   (HTTP 200, `validation.accepted: false`; the legacy v1 builders answer 422 `BUILD_REFUSED`).
 * - `attribution`: the `attribution.reason` of a deposit build whose attribution did not apply. Such a
 *   deposit goes ahead without attribution, or is refused with `ATTRIBUTION_REQUIRED` when the
 *   request requires it: these codes concern only the attribution and are never rejection reasons.
 */
export interface ErrorCodeEntry {
  readonly status?: number
  readonly ws?: boolean
  readonly rejection?: boolean
  readonly attribution?: boolean
  readonly meaning: string
}

type Registry = typeof registry

export type ErrorCode = keyof Registry

/** The registry, each entry checked against `ErrorCodeEntry`. */
export const ERROR_CODES: { readonly [Code in ErrorCode]: Registry[Code] & ErrorCodeEntry } = registry

type CodesWith<Mark> = { [Code in ErrorCode]: Registry[Code] extends Mark ? Code : never }[ErrorCode]

/** Codes of HTTP error answers (`error` of the envelope). */
export type HttpErrorCode = CodesWith<{ readonly status: number }>
/** Codes of WebSocket `error` frames. */
export type WsErrorCode = CodesWith<{ readonly ws: boolean }>
/** Codes of `validation.rejectionReasons`. */
export type RejectionCode = CodesWith<{ readonly rejection: boolean }>
/** Codes of `attribution.reason`. */
export type AttributionReason = CodesWith<{ readonly attribution: boolean }>

const entryOf = (code: ErrorCode): ErrorCodeEntry => ERROR_CODES[code]

const codesWhere = <Code extends ErrorCode>(test: (entry: ErrorCodeEntry) => boolean): ReadonlyArray<Code> =>
  (Object.keys(ERROR_CODES) as Array<ErrorCode>).filter((code) => test(entryOf(code))) as Array<Code>

export const HTTP_ERROR_CODES = codesWhere<HttpErrorCode>((entry) => entry.status !== undefined)
export const WS_ERROR_CODES = codesWhere<WsErrorCode>((entry) => entry.ws === true)
export const REJECTION_CODES = codesWhere<RejectionCode>((entry) => entry.rejection === true)
export const ATTRIBUTION_REASONS = codesWhere<AttributionReason>((entry) => entry.attribution === true)

export const isAttributionReason = (code: ErrorCode): code is AttributionReason => entryOf(code).attribution === true

/** The HTTP status shared by `codes`; throws when they differ (one error class answers with one status). */
export const httpStatusOf = (codes: ReadonlyArray<HttpErrorCode>): number => {
  const statuses = new Set(codes.map((code) => (Object.hasOwn(ERROR_CODES, code) ? entryOf(code).status : undefined)))
  const [status] = statuses
  if (statuses.size !== 1 || status === undefined) {
    throw new Error(`codes ${codes.join(", ")} do not share one HTTP status in the error-code registry`)
  }
  return status
}
