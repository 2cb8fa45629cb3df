/**
 * Every machine code the service puts on the wire, declared once. Append-only: add new codes at the
 * end, never rename, remove or re-mean one (clients match on them); test/errors/codes.test.ts pins
 * the table and the README's error-code section is generated from it (scripts/gen-error-codes.ts).
 *
 * Where a code goes on the wire:
 * - `status`: the `error` of an HTTP error answer `{success:false, error, message}`, with this status.
 *   This is the one place that maps codes to HTTP statuses.
 * - `ws`: the `code` of a WebSocket `error` frame.
 * - `rejection`: a `validation.rejectionReasons[].code` of a build or preview refused by policy
 *   (HTTP 200, `validation.accepted: false`; the legacy v1 builders answer 422 `BUILD_REFUSED`).
 * - `attribution`: the `attribution.reason` of a deposit build whose attribution did not apply.
 */
export interface ErrorCodeEntry {
  readonly status?: number
  readonly ws?: true
  readonly rejection?: true
  readonly attribution?: true
  readonly meaning: string
}

export const ERROR_CODES = {
  BAD_REQUEST: { status: 400, meaning: "A request header is malformed" },
  INVALID_ADDRESS: { status: 400, meaning: "A path or query value is not a base58 Solana address (32 bytes)" },
  INVALID_CURSOR: { status: 400, meaning: "The page cursor was not issued by this server for this route and filters" },
  INVALID_QUERY: { status: 400, meaning: "A query parameter is malformed, repeated or inconsistent with another" },
  MALFORMED_JSON: { status: 400, ws: true, meaning: "The request body or WebSocket message is not valid JSON" },
  INVALID_PATH: { status: 400, meaning: "A path parameter is malformed" },
  INVALID_BODY: { status: 400, meaning: "The request body does not have the expected shape" },
  UNAUTHORIZED: { status: 401, ws: true, meaning: "The API key is missing, unknown, revoked or expired" },
  FORBIDDEN: { status: 403, meaning: "The credential may not do this" },
  WRONG_ENVIRONMENT: { status: 403, meaning: "The API key belongs to another environment (cluster)" },
  NOT_FOUND: { status: 404, meaning: "No such route or resource (e.g. an unknown or disabled builder code)" },
  VAULT_NOT_FOUND: { status: 404, ws: true, meaning: "No vault of the program at this address or legacy id" },
  NO_POSITION: { status: 404, meaning: "The wallet has no position in the vault" },
  METHOD_NOT_ALLOWED: { status: 405, meaning: "The path exists but not for this method (see Allow)" },
  PAYLOAD_TOO_LARGE: { status: 413, meaning: "The request body is over the route's limit" },
  URI_TOO_LONG: { status: 414, meaning: "The path and query are over the limit" },
  RATE_LIMITED: {
    status: 429,
    ws: true,
    meaning: "Over the key's quota, the per-IP build quota or the key's WebSocket connection limit; retry after Retry-After"
  },
  HEADERS_TOO_LARGE: { status: 431, meaning: "The request headers are over the limit" },
  INTERNAL: { status: 500, meaning: "Unexpected failure, logged under the request id" },
  PROJECTION_UNAVAILABLE: {
    status: 503,
    meaning: "The projection (or the stored history a read needs) is not live yet; retry after Retry-After"
  },
  UNKNOWN_FIELD: { status: 400, meaning: "The build request has a field the builder does not take" },
  MISSING_FIELD: { status: 400, meaning: "The build request lacks a required field" },
  INVALID_FIELD: { status: 400, meaning: "A build request field has the wrong type or value" },
  CONFLICTING_FIELDS: { status: 400, meaning: "The build request gives fields that exclude each other" },
  INVALID_AMOUNT_RAW: {
    status: 400,
    rejection: true,
    meaning: "amountRaw is not a canonical integer string from 1 to 2^64-1"
  },
  INVALID_SHARES_RAW: { status: 400, meaning: "sharesRaw is not a canonical integer string from 1 to 2^128-1" },
  INVALID_USER_ADDRESS: { status: 400, meaning: "userAddress is not a base58 Solana address" },
  USER_ADDRESS_OFF_CURVE: { status: 400, meaning: "userAddress is off the ed25519 curve (a program address): it cannot sign" },
  INVALID_REFERRER_ADDRESS: { status: 400, meaning: "referrer is not a base58 Solana address" },
  INVALID_CODE: { status: 400, meaning: "code is not a string of at most 64 characters" },
  INVALID_PRIORITY_FEE: { status: 400, meaning: "priorityFeeMicroLamports is not an unsigned 64-bit integer" },
  BLOCKHASH_UNAVAILABLE: { status: 503, meaning: "No fresh blockhash is cached yet; retry after Retry-After" },
  SIMULATION_FAILED: { status: 422, meaning: "The node's simulation of the built transaction failed (program logs attached)" },
  OWNER_WALLET_REQUIRED: { status: 403, meaning: "The partner key has no owner wallet, so it has no agreements" },
  BUILD_REFUSED: { status: 422, meaning: "Legacy v1 builders: the vault's policy refuses the request (reasons attached)" },
  MESSAGE_TOO_LARGE: { ws: true, meaning: "The WebSocket message is over the size limit" },
  UNKNOWN_OP: { ws: true, meaning: "The message's op is not subscribe, unsubscribe or ping" },
  INVALID_MESSAGE: { ws: true, meaning: "The message is not an object with an op and a non-empty array of topic strings" },
  UNKNOWN_TOPIC: { ws: true, meaning: "A topic name is not one of the protocol's topics" },
  TOO_MANY_TOPICS: { ws: true, meaning: "The subscribe would take the connection over its topic limit" },
  TOO_MANY_PENDING: { ws: true, meaning: "Too many messages wait behind a subscribe's key check" },
  INTERNAL_ERROR: { ws: true, meaning: "The API key could not be checked; subscribe again" },
  BUNDLE_ACCOUNT_NOT_FOUND: { rejection: true, meaning: "The vault's Bundle account is not known" },
  ORACLE_DATA_NOT_FOUND: { rejection: true, meaning: "The vault has no oracle account" },
  VAULT_PAUSED: { rejection: true, meaning: "Deposits and withdrawals are paused on the vault" },
  BUNDLE_IS_PERMISSIONED: { rejection: true, meaning: "The vault is permissioned: positions are opened by its manager" },
  MIN_DEPOSIT_AMOUNT_NOT_MET: { rejection: true, meaning: "The deposit is below the vault minimum" },
  BUILDER_DEPOSIT_AMOUNT_TOO_LOW: {
    rejection: true,
    attribution: true,
    meaning: "The deposit is too small to be attributed (requiredGrossDepositAmount says how much is needed)"
  },
  REFERRALS_DISABLED: { rejection: true, attribution: true, meaning: "Referrals are disabled on the vault" },
  INVALID_REFERRER: {
    rejection: true,
    attribution: true,
    meaning: "The builder is the default key, the vault manager or the depositor"
  },
  REFERRAL_ALREADY_SET: { rejection: true, attribution: true, meaning: "The position is already bound to a builder" },
  USER_BUNDLE_ACCOUNT_HAS_ACTIVITY: {
    rejection: true,
    attribution: true,
    meaning: "Only a position without past activity can be attributed"
  },
  REFERRER_NOT_REGISTERED: { rejection: true, attribution: true, meaning: "The builder is not registered on the vault" },
  REFERRER_DEACTIVATED: { rejection: true, attribution: true, meaning: "The builder is deactivated on the vault" },
  REFERRER_DEPOSIT_TOO_LOW: {
    rejection: true,
    attribution: true,
    meaning: "The builder's own deposit in the vault is below the vault's minimum for referrers"
  },
  REFERRER_ALREADY_REGISTERED: { rejection: true, meaning: "The builder is already registered on the vault" },
  REFERRER_ACCOUNT_MISMATCH: { rejection: true, meaning: "The referrer account belongs to another builder or vault" },
  USER_BUNDLE_ACCOUNT_NOT_FOUND: { rejection: true, meaning: "The wallet has no position in the vault" },
  PENDING_DEPOSIT_EXISTS: { rejection: true, meaning: "A deposit is still pending; withdraw after it has been processed" },
  WITHDRAWAL_ALREADY_PENDING: { rejection: true, meaning: "A withdrawal or claim is already pending" },
  WITHDRAWAL_SHARES_ZERO: { rejection: true, meaning: "The requested amount corresponds to zero shares" },
  NO_ACCRUED_REFERRAL_SHARES: { rejection: true, meaning: "The builder has no accrued referral shares to claim" },
  WITHDRAWAL_VALUE_TOO_SMALL: { rejection: true, meaning: "The shares to withdraw or claim are currently worth nothing" },
  INVALID_FEE_CONFIG: { rejection: true, meaning: "The vault's deposit fee leaves nothing to deposit" },
  ATTRIBUTION_REQUIRED: {
    rejection: true,
    meaning: "A requireAttribution deposit could not be attributed (attribution.reason says why)"
  },
  MAX_DEPOSIT_AMOUNT_EXCEEDED: { rejection: true, meaning: "The deposit would take the vault over its cap" },
  INSUFFICIENT_TOKEN_BALANCE: { rejection: true, meaning: "The wallet's token balance is below the deposit amount" },
  WITHDRAWAL_DELAY_NOT_MET: { rejection: true, meaning: "Withdrawals open only after the vault's delay since the last deposit" },
  NETTING_IN_PROGRESS: {
    rejection: true,
    meaning: "The keeper has netted this cycle's deposits; request again once the cycle has closed"
  },
  BUNDLE_TEMP_DATA_NOT_FOUND: { rejection: true, meaning: "The vault has no temp data account" },
  WITHDRAWAL_EXCEEDS_VAULT: {
    rejection: true,
    meaning: "A preview asks for more shares than exist, or more value than the vault holds"
  },
  UNKNOWN_CODE: { attribution: true, meaning: "The builder code is unknown or disabled" },
  INVALID_REFERRER_CODE: { attribution: true, meaning: "The builder code is empty" }
} as const satisfies Record<string, ErrorCodeEntry>

type Registry = typeof ERROR_CODES

export type ErrorCode = keyof Registry

type CodesWith<Mark> = { [Code in ErrorCode]: Registry[Code] extends Mark ? Code : never }[ErrorCode]

/** Codes of HTTP error answers (`error` of the envelope). */
export type HttpErrorCode = CodesWith<{ readonly status: number }>
/** Codes of WebSocket `error` frames. */
export type WsErrorCode = CodesWith<{ readonly ws: true }>
/** Codes of `validation.rejectionReasons`. */
export type RejectionCode = CodesWith<{ readonly rejection: true }>
/** Codes of `attribution.reason`. */
export type AttributionReason = CodesWith<{ readonly attribution: true }>

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
  const statuses = new Set(codes.map((code) => Object.hasOwn(ERROR_CODES, code) ? ERROR_CODES[code].status : undefined))
  const [status] = statuses
  if (statuses.size !== 1 || status === undefined) {
    throw new Error(`codes ${codes.join(", ")} do not share one HTTP status in the error-code registry`)
  }
  return status
}
