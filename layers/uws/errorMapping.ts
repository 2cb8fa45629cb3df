import * as HttpApiError from "@effect/platform/HttpApiError"
import * as HttpApiSchema from "@effect/platform/HttpApiSchema"
import { Cause, Either, Option, ParseResult, Schema, SchemaAST } from "effect"
import { ErrorEnvelopeId } from "../../src/api/errorResponse.ts"
import { allErrorResponses, InternalError, InternalErrorResponse, MethodNotAllowed, RateLimited, Unauthorized } from "../../src/api/errors.ts"
import type { HeaderList } from "./respond.ts"

/**
 * The one place where failures become HTTP. The status of a typed error is the one its contract
 * schema is annotated with; the body is that schema's encoding (the envelope); a few errors add
 * headers. Anything else (a defect, an error the endpoint does not declare, a body that does not
 * encode) becomes 500 `INTERNAL` and is reported back as `unexpected` so the caller logs it.
 */

interface ErrorMember {
  readonly status: number
  readonly is: (u: unknown) => boolean
  readonly encode: (u: unknown) => Either.Either<unknown, ParseResult.ParseIssue>
}

/** The errors one endpoint may answer with (its own, its group's and the API's), by status. */
export interface ErrorTable {
  readonly members: ReadonlyArray<ErrorMember>
}

const memberOf = (status: number, schema: Schema.Schema<unknown, unknown>): ErrorMember => ({
  status,
  is: Schema.is(Schema.typeSchema(schema)),
  encode: ParseResult.encodeUnknownEither(schema)
})

// HttpApi declares it on every API; this transport decodes requests itself and never answers with it.
const isHttpApiDecodeError = (ast: SchemaAST.AST) =>
  Option.contains(SchemaAST.getIdentifierAnnotation(SchemaAST.typeAST(ast)), HttpApiError.HttpApiDecodeError.identifier)

const unionMembers = (ast: SchemaAST.AST): ReadonlyArray<SchemaAST.AST> =>
  ast._tag === "Union" ? ast.types.flatMap(unionMembers) : [ast]

/** From `HttpApi.reflect`'s error map; refuses error schemas not built with `errorResponse`. */
export const errorTableOf = (
  errors: ReadonlyMap<number, { readonly ast: Option.Option<SchemaAST.AST> }>,
  where: string
): ErrorTable => {
  const members: Array<ErrorMember> = []
  for (const [status, { ast }] of errors) {
    if (Option.isNone(ast)) continue
    for (const member of unionMembers(ast.value)) {
      if (member.annotations[ErrorEnvelopeId] !== true && !isHttpApiDecodeError(member)) {
        throw new Error(`${where}: the ${status} error is not declared with errorResponse(...) from src/api`)
      }
    }
    members.push(memberOf(status, Schema.make(ast.value)))
  }
  return { members }
}

/** For answers outside any endpoint (unknown route, method not allowed): every API error. */
export const globalErrorTable: ErrorTable = {
  members: allErrorResponses.map((schema) =>
    memberOf(HttpApiSchema.getStatusError(schema), schema as Schema.Schema<unknown, unknown>)
  )
}

/** RFC 6750: a 401 for a missing or refused partner key names the scheme the key goes in. */
const BEARER_CHALLENGE: HeaderList = [["www-authenticate", 'Bearer realm="vault-gateway"']]

/**
 * Headers some errors carry: `Retry-After` (503, 429), `X-RateLimit-*` (429), `Allow` (405),
 * `WWW-Authenticate` (401 of the partner key).
 */
export const errorHeaders = (error: unknown): HeaderList => {
  if (error instanceof RateLimited) {
    return [
      ["x-ratelimit-limit", String(error.limit)],
      ["x-ratelimit-remaining", String(error.remaining)],
      ["x-ratelimit-reset", String(error.reset)],
      ["retry-after", String(error.retryAfterSeconds)]
    ]
  }
  if (error instanceof MethodNotAllowed) return [["allow", error.allow.join(", ")]]
  if (error instanceof Unauthorized) return BEARER_CHALLENGE
  const retryAfter = (error as { readonly retryAfterSeconds?: unknown } | null)?.retryAfterSeconds
  return typeof retryAfter === "number" ? [["retry-after", String(retryAfter)]] : []
}

export interface HttpFailure {
  readonly status: number
  readonly headers: HeaderList
  readonly body: string
  /** Set when the failure was not an expected, declared error: log it with the request id. */
  readonly unexpected: Cause.Cause<unknown> | undefined
}

const encodeInternal = Schema.encodeSync(InternalErrorResponse)

const internal = (requestId: string, cause: Cause.Cause<unknown>): HttpFailure => ({
  status: 500,
  headers: [],
  body: JSON.stringify(
    encodeInternal(
      new InternalError({
        code: "INTERNAL",
        requestId,
        message: `unexpected failure; it is logged under request id ${requestId}`
      })
    )
  ),
  unexpected: cause
})

export const failureToHttp = (table: ErrorTable, cause: Cause.Cause<unknown>, requestId: string): HttpFailure => {
  const failure = Cause.failureOption(cause)
  if (Option.isNone(failure)) return internal(requestId, cause)
  const error = failure.value
  for (const member of table.members) {
    if (!member.is(error)) continue
    const encoded = member.encode(error)
    if (Either.isLeft(encoded)) {
      return internal(requestId, Cause.sequential(cause, Cause.die(new ParseResult.ParseError({ issue: encoded.left }))))
    }
    return {
      status: member.status,
      headers: errorHeaders(error),
      body: JSON.stringify(encoded.right),
      unexpected: member.status === 500 ? cause : undefined
    }
  }
  return internal(requestId, cause)
}

/** A typed error raised by the transport itself (limits, decoding, routing). */
export const errorToHttp = (table: ErrorTable, error: unknown, requestId: string): HttpFailure =>
  failureToHttp(table, Cause.fail(error), requestId)
