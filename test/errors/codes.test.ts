import { HttpApi, type HttpApiGroup } from "@effect/platform"
import { Option, SchemaAST } from "effect"
import { readFileSync } from "node:fs"
import { describe, expect, it } from "vitest"
import { errorCodeSectionOf, renderErrorCodeSection } from "../../scripts/errorCodesMarkdown.ts"
import { Api } from "../../src/api/Api.ts"
import { allErrorResponses } from "../../src/api/errors.ts"
import { NotReadyResponse } from "../../src/api/system/statusBody.ts"
import { GATEWAY_REJECTION_CODES } from "../../src/domain/builds/rejections.ts"
import {
  ATTRIBUTION_REASONS,
  ERROR_CODES,
  type ErrorCodeEntry,
  HTTP_ERROR_CODES,
  httpStatusOf,
  REJECTION_CODES,
  WS_ERROR_CODES
} from "../../src/errors/codes.ts"
import { BUILD_REJECTION_CODES } from "../../src/ntbundle/builders/rejection.ts"

/**
 * The published codes, one a line: code | HTTP status (- when never an HTTP error) | where it goes on
 * the wire | meaning. Append-only: a failure because a line vanished or changed is a client-visible
 * break (a renamed, removed or re-meant code). Adding a code to the registry means adding its line
 * here, at the end.
 */
const PUBLISHED = `
BAD_REQUEST | 400 | http | A request header is malformed
INVALID_ADDRESS | 400 | http | A path or query value is not a base58 Solana address (32 bytes)
INVALID_CURSOR | 400 | http | The page cursor was not issued by this server for this route and filters
INVALID_QUERY | 400 | http | A query parameter is malformed, repeated or inconsistent with another
MALFORMED_JSON | 400 | http ws | The request body or WebSocket message is not valid JSON
INVALID_PATH | 400 | http | A path parameter is malformed
INVALID_BODY | 400 | http | The request body does not have the expected shape
UNAUTHORIZED | 401 | http ws | The API key is missing, unknown, revoked or expired
FORBIDDEN | 403 | http | The credential may not do this
WRONG_ENVIRONMENT | 403 | http | The API key belongs to another environment (cluster)
NOT_FOUND | 404 | http | No such route or resource (e.g. an unknown or disabled builder code)
VAULT_NOT_FOUND | 404 | http ws | No vault of the program at this address or legacy id
NO_POSITION | 404 | http | The wallet has no position in the vault
METHOD_NOT_ALLOWED | 405 | http | The path exists but not for this method (see Allow)
PAYLOAD_TOO_LARGE | 413 | http | The request body is over the route's limit
URI_TOO_LONG | 414 | http | The path and query are over the limit
RATE_LIMITED | 429 | http ws | Over the key's quota, the per-IP build quota or the key's WebSocket connection limit; retry after Retry-After
HEADERS_TOO_LARGE | 431 | http | The request headers are over the limit
INTERNAL | 500 | http | Unexpected failure, logged under the request id
PROJECTION_UNAVAILABLE | 503 | http | The projection (or the stored history a read needs) is not live yet; retry after Retry-After
UNKNOWN_FIELD | 400 | http | The build request has a field the builder does not take
MISSING_FIELD | 400 | http | The build request lacks a required field
INVALID_FIELD | 400 | http | A build request field has the wrong type or value
CONFLICTING_FIELDS | 400 | http | The build request gives fields that exclude each other
INVALID_AMOUNT_RAW | 400 | http rejection | amountRaw is not a canonical integer string from 1 to 2^64-1
INVALID_SHARES_RAW | 400 | http | sharesRaw is not a canonical integer string from 1 to 2^128-1
INVALID_USER_ADDRESS | 400 | http | userAddress is not a base58 Solana address
USER_ADDRESS_OFF_CURVE | 400 | http | userAddress is off the ed25519 curve (a program address): it cannot sign
INVALID_REFERRER_ADDRESS | 400 | http | referrer is not a base58 Solana address
INVALID_CODE | 400 | http | code is not a string of at most 64 characters
INVALID_PRIORITY_FEE | 400 | http | priorityFeeMicroLamports is not an unsigned 64-bit integer
BLOCKHASH_UNAVAILABLE | 503 | http | No fresh blockhash is cached yet; retry after Retry-After
SIMULATION_FAILED | 422 | http | The node's simulation of the built transaction failed (program logs attached)
OWNER_WALLET_REQUIRED | 403 | http | The partner key has no owner wallet, so it has no agreements
BUILD_REFUSED | 422 | http | Legacy v1 builders: the vault's policy refuses the request (reasons attached)
MESSAGE_TOO_LARGE | - | ws | The WebSocket message is over the size limit
UNKNOWN_OP | - | ws | The message's op is not subscribe, unsubscribe or ping
INVALID_MESSAGE | - | ws | The message is not an object with an op and a non-empty array of topic strings
UNKNOWN_TOPIC | - | ws | A topic name is not one of the protocol's topics
TOO_MANY_TOPICS | - | ws | The subscribe would take the connection over its topic limit
TOO_MANY_PENDING | - | ws | Too many messages wait behind a subscribe's key check
INTERNAL_ERROR | - | ws | The API key could not be checked; subscribe again
BUNDLE_ACCOUNT_NOT_FOUND | - | rejection | The vault's Bundle account is not known
ORACLE_DATA_NOT_FOUND | - | rejection | The vault has no oracle account
VAULT_PAUSED | - | rejection | Deposits and withdrawals are paused on the vault
BUNDLE_IS_PERMISSIONED | - | rejection | The vault is permissioned: positions are opened by its manager
MIN_DEPOSIT_AMOUNT_NOT_MET | - | rejection | The deposit is below the vault minimum
BUILDER_DEPOSIT_AMOUNT_TOO_LOW | - | attribution | The deposit is too small to be attributed (requiredGrossDepositAmount says how much is needed)
REFERRALS_DISABLED | - | attribution | Referrals are disabled on the vault
INVALID_REFERRER | - | attribution | The builder is the default key, the vault manager or the depositor
REFERRAL_ALREADY_SET | - | attribution | The position is already bound to a builder
USER_BUNDLE_ACCOUNT_HAS_ACTIVITY | - | attribution | Only a position without past activity can be attributed
REFERRER_NOT_REGISTERED | - | attribution | The builder is not registered on the vault
REFERRER_DEACTIVATED | - | attribution | The builder is deactivated on the vault
REFERRER_DEPOSIT_TOO_LOW | - | attribution | The builder's own deposit in the vault is below the vault's minimum for referrers
REFERRER_ALREADY_REGISTERED | - | rejection | The builder is already registered on the vault
REFERRER_ACCOUNT_MISMATCH | - | rejection | The referrer account belongs to another builder or vault
USER_BUNDLE_ACCOUNT_NOT_FOUND | - | rejection | The wallet has no position in the vault
PENDING_DEPOSIT_EXISTS | - | rejection | A deposit is still pending; withdraw after it has been processed
WITHDRAWAL_ALREADY_PENDING | - | rejection | A withdrawal or claim is already pending
WITHDRAWAL_SHARES_ZERO | - | rejection | The requested amount corresponds to zero shares
NO_ACCRUED_REFERRAL_SHARES | - | rejection | The builder has no accrued referral shares to claim
WITHDRAWAL_VALUE_TOO_SMALL | - | rejection | The shares to withdraw or claim are currently worth nothing
INVALID_FEE_CONFIG | - | rejection | The vault's deposit fee leaves nothing to deposit
ATTRIBUTION_REQUIRED | - | rejection | A requireAttribution deposit could not be attributed (attribution.reason says why)
MAX_DEPOSIT_AMOUNT_EXCEEDED | - | rejection | The deposit would take the vault over its cap
INSUFFICIENT_TOKEN_BALANCE | - | rejection | The wallet's token balance is below the deposit amount
WITHDRAWAL_DELAY_NOT_MET | - | rejection | Withdrawals open only after the vault's delay since the last deposit
NETTING_IN_PROGRESS | - | rejection | The keeper has netted this cycle's deposits; request again once the cycle has closed
BUNDLE_TEMP_DATA_NOT_FOUND | - | rejection | The vault has no temp data account
WITHDRAWAL_EXCEEDS_VAULT | - | rejection | A preview asks for more shares than exist, or more value than the vault holds
UNKNOWN_CODE | - | attribution | The builder code is unknown or disabled
INVALID_REFERRER_CODE | - | attribution | The builder code is empty
INSUFFICIENT_SCOPE | 403 | http | The partner key lacks the scope the route needs (reads, reporting, builds, stream)
SESSION_REQUIRED | 401 | http | No live wallet session cookie (signed out, idle or past its lifetime; partner keys are not accepted)
SIWS_NONCE_INVALID | 401 | http | The sign-in nonce is unknown, already used or expired
SIWS_FIELD_MISMATCH | 401 | http | A field of the signed message differs from the issued input (domain, uri, chain id, ...)
SIWS_EXPIRED | 401 | http | issuedAt is over 10 minutes from server time, or expirationTime/notBefore excludes now
SIWS_SIGNATURE_INVALID | 401 | http | The ed25519 signature or the account's public key does not match the signed message
SIWS_MESSAGE_INVALID | 400 | http | The signed message is not a Sign-In With Solana message, lacks a field or is over 2048 bytes
IDEMPOTENCY_KEY_INVALID | 400 | http | The Idempotency-Key header is empty, over 255 characters or not printable ASCII
ORIGIN_MISMATCH | 403 | http | A state-changing request did not carry the configured public origin in Origin
KEY_NOT_FOUND | 404 | http | No active key with this id in the organization
CODE_NOT_FOUND | 404 | http | The organization holds no such code
SESSION_NOT_FOUND | 404 | http | The wallet has no live session with this id
CODE_TAKEN | 409 | http | The code (compared without case) is held by someone, enabled or disabled
WALLET_OWNS_ORGANIZATION | 409 | http | The new owner wallet already owns an organization with keys or codes
LIMIT_REACHED | 409 | http | The organization holds the most active keys or codes allowed
IDEMPOTENCY_IN_PROGRESS | 409 | http | A request with this Idempotency-Key is still running; retry shortly
IDEMPOTENCY_KEY_REUSED | 422 | http | The Idempotency-Key was used with another method, path or body
UPGRADE_REQUIRED | 426 | http | GET /v2/stream is a WebSocket endpoint: send the upgrade request
`

const lineOf = (code: string, entry: ErrorCodeEntry): string => {
  const where = [
    entry.status === undefined ? "" : "http",
    entry.ws === true ? "ws" : "",
    entry.rejection === true ? "rejection" : "",
    entry.attribution === true ? "attribution" : ""
  ].filter((place) => place !== "")
  return [code, entry.status ?? "-", where.join(" "), entry.meaning].join(" | ")
}

/** The `error` literals of an error response schema's wire form (the envelope). */
const wireCodesOf = (ast: SchemaAST.AST): ReadonlyArray<string> => {
  const envelope = SchemaAST.encodedAST(ast)
  if (!SchemaAST.isTypeLiteral(envelope)) return []
  const error = envelope.propertySignatures.find((property) => property.name === "error")?.type
  if (error === undefined) return []
  return (SchemaAST.isUnion(error) ? error.types : [error]).map((literal) => String((literal as SchemaAST.Literal).literal))
}

const unionMembers = (ast: SchemaAST.AST): ReadonlyArray<SchemaAST.AST> =>
  SchemaAST.isUnion(ast) ? ast.types.flatMap(unionMembers) : [ast]

/** Every (code, status) pair the contract declares, plus the transport's answers outside any endpoint. */
const declaredHttpCodes = (): Map<string, Set<number>> => {
  const declared = new Map<string, Set<number>>()
  const add = (status: number, ast: SchemaAST.AST) => {
    for (const member of unionMembers(ast)) {
      for (const code of wireCodesOf(member)) declared.set(code, (declared.get(code) ?? new Set()).add(status))
    }
  }
  HttpApi.reflect(Api as unknown as HttpApi.HttpApi<string, HttpApiGroup.HttpApiGroup.AnyWithProps>, {
    onGroup: () => {},
    onEndpoint: ({ errors }) => {
      for (const [status, { ast }] of errors) if (Option.isSome(ast)) add(status, ast.value)
    }
  })
  for (const schema of [...allErrorResponses, NotReadyResponse]) add(httpStatusOf(wireCodesOf(schema.ast) as never), schema.ast)
  return declared
}

describe("error-code registry", () => {
  it("keeps every published code with its status, places and meaning (append-only)", () => {
    const registry = Object.entries(ERROR_CODES).map(([code, entry]) => lineOf(code, entry))
    expect(registry).toEqual(PUBLISHED.trim().split("\n"))
  })

  it("writes every mark as true (the types read a mark's presence)", () => {
    for (const [code, entry] of Object.entries(ERROR_CODES)) {
      for (const mark of [entry.ws, entry.rejection, entry.attribution]) expect([undefined, true], code).toContain(mark)
    }
  })

  it("gives each error class one status and refuses codes that do not share it", () => {
    expect(httpStatusOf(["NOT_FOUND", "VAULT_NOT_FOUND", "NO_POSITION"])).toBe(404)
    expect(() => httpStatusOf(["BAD_REQUEST", "NOT_FOUND"])).toThrow(/one HTTP status/)
  })

  it("is what the HTTP contract declares: each code with its registry status, and no registry code unused", () => {
    const declared = declaredHttpCodes()
    const registry: Record<string, ErrorCodeEntry | undefined> = ERROR_CODES
    for (const [code, statuses] of declared) expect([...statuses], code).toEqual([registry[code]?.status])
    expect([...declared.keys()].sort()).toEqual([...HTTP_ERROR_CODES].sort())
  })

  it("holds the build refusal codes the builders and the gateway produce, and only those", () => {
    const produced = new Set<string>([...BUILD_REJECTION_CODES, ...GATEWAY_REJECTION_CODES])
    const lookupOnly = new Set<string>(["UNKNOWN_CODE", "INVALID_REFERRER_CODE"])
    const registered = new Set<string>([...REJECTION_CODES, ...ATTRIBUTION_REASONS.filter((code) => !lookupOnly.has(code))])
    expect([...registered].sort()).toEqual([...produced].sort())
  })

  describe("agrees with the README", () => {
    const readme = readFileSync(new URL("../../README.md", import.meta.url), "utf8")

    it("whose error-code section is the one generated from the registry (npx tsx scripts/gen-error-codes.ts)", () => {
      expect(errorCodeSectionOf(readme)).toBe(renderErrorCodeSection())
    })

    it("whose WebSocket section lists the codes of error frames", () => {
      const list = /`\{"type":"error",[^\n]*\n[\s\S]*?Codes: ([\s\S]*?)\.\s/.exec(readme)?.[1]
      expect(list, "the README's WebSocket error codes").toBeDefined()
      const listed = [...list!.matchAll(/`([A-Z_]+)`/g)].map((match) => match[1])
      expect(listed.sort()).toEqual([...WS_ERROR_CODES].sort())
    })
  })
})
