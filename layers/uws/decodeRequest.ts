import type * as HttpApiEndpoint from "@effect/platform/HttpApiEndpoint"
import { Either, Option, ParseResult, type Schema, SchemaAST } from "effect"
import { BadRequest, type BadRequestCode, BadRequestCodeId } from "../../src/api/errors.ts"
import { parseQuery, type QueryValues, truncate } from "./queryString.ts"

/**
 * Decoders for one endpoint's path parameters, query, headers and JSON body, compiled once when the
 * route is registered. Each turns raw request text into the handler's typed input or a 400
 * `BadRequest` whose code comes from the failing schema's `BadRequestCodeId` annotation (e.g.
 * `INVALID_ADDRESS`) or else from where the bad value was.
 */
export interface EndpointDecoders {
  /** Parameter names in path order (uWS hands them out by index). */
  readonly pathParameterNames: ReadonlyArray<string>
  readonly path: ((raw: ReadonlyArray<string>) => Either.Either<unknown, BadRequest>) | undefined
  readonly query: ((raw: string) => Either.Either<unknown, BadRequest>) | undefined
  readonly headers: ((headers: Readonly<Record<string, string>>) => Either.Either<unknown, BadRequest>) | undefined
  readonly payload: ((body: Buffer) => Either.Either<unknown, BadRequest>) | undefined
}

const MAX_MESSAGE = 240

const codeOfIssue = (issue: ParseResult.ParseIssue): BadRequestCode | undefined => {
  if ("ast" in issue) {
    const code = issue.ast.annotations[BadRequestCodeId]
    if (typeof code === "string") return code as BadRequestCode
  }
  switch (issue._tag) {
    case "Pointer":
    case "Refinement":
    case "Transformation":
      return codeOfIssue(issue.issue)
    case "Composite":
      for (const inner of Array.isArray(issue.issues) ? issue.issues : [issue.issues]) {
        const code = codeOfIssue(inner)
        if (code !== undefined) return code
      }
      return undefined
    default:
      return undefined
  }
}

const badRequest = (code: BadRequestCode, message: string): BadRequest =>
  new BadRequest({ code, message: truncate(message, MAX_MESSAGE) })

const fromParseIssue = (issue: ParseResult.ParseIssue, defaultCode: BadRequestCode, where: string): BadRequest => {
  let first: ParseResult.ArrayFormatterIssue | undefined
  try {
    first = ParseResult.ArrayFormatter.formatIssueSync(issue)[0]
  } catch {
    // the message quotes the value it got, and a deeply nested one (`[[[[...]]]]`) overflows the
    // stack of Effect's formatter: the answer is still a 400, without the quote
    first = undefined
  }
  const path = first === undefined || first.path.length === 0 ? "" : ` ${first.path.map(String).join(".")}`
  return badRequest(codeOfIssue(issue) ?? defaultCode, `${where}${path}: ${first?.message ?? "invalid"}`)
}

const compile = (schema: Schema.Schema.Any, defaultCode: BadRequestCode, where: string) => {
  const decode = ParseResult.decodeUnknownEither(schema as Schema.Schema<unknown, unknown>, { errors: "first" })
  return (input: unknown): Either.Either<unknown, BadRequest> =>
    Either.mapLeft(decode(input), (issue) => fromParseIssue(issue, defaultCode, where))
}

const acceptsArray = (ast: SchemaAST.AST): boolean => {
  const encoded = SchemaAST.encodedAST(ast)
  return SchemaAST.isTupleType(encoded) || (SchemaAST.isUnion(encoded) && encoded.types.some(acceptsArray))
}

/** Query keys whose schema takes an array: a single occurrence is wrapped; other keys may not repeat. */
const arrayKeysOf = (schema: Schema.Schema.Any): ReadonlySet<string> => {
  const encoded = SchemaAST.encodedAST(schema.ast)
  if (!SchemaAST.isTypeLiteral(encoded)) return new Set()
  return new Set(
    encoded.propertySignatures.filter((property) => acceptsArray(property.type)).map((property) => String(property.name))
  )
}

const normaliseRepeats = (
  values: QueryValues,
  arrayKeys: ReadonlySet<string>
): Either.Either<QueryValues, BadRequest> => {
  for (const key in values) {
    const value = values[key]!
    if (arrayKeys.has(key)) {
      if (typeof value === "string") values[key] = [value]
    } else if (typeof value !== "string") {
      return Either.left(badRequest("INVALID_QUERY", `query parameter '${truncate(key)}' is given more than once`))
    }
  }
  return Either.right(values)
}

const decodePercent = (raw: string): string | undefined => {
  if (raw.indexOf("%") === -1) return raw
  try {
    return decodeURIComponent(raw)
  } catch {
    return undefined
  }
}

/** Decoded path parameters by raw text (uWS parameters never hold a "/"), bounded; pure, so never stale. */
class RecentDecodes {
  readonly #decoded = new Map<string, Either.Either<unknown, BadRequest>>()

  constructor(private readonly max = 4_096) {}

  get(raw: string): Either.Either<unknown, BadRequest> | undefined {
    return this.#decoded.get(raw)
  }

  add(raw: string, decoded: Either.Either<unknown, BadRequest>): Either.Either<unknown, BadRequest> {
    // Shared by every request with this path from now on.
    if (Either.isRight(decoded)) Object.freeze(decoded.right)
    if (this.#decoded.size >= this.max) this.#decoded.clear()
    this.#decoded.set(raw, decoded)
    return decoded
  }
}

export const pathParameterNamesOf = (path: string): ReadonlyArray<string> =>
  path.split("/").filter((segment) => segment.startsWith(":")).map((segment) => segment.slice(1))

export const compileDecoders = (
  endpoint: HttpApiEndpoint.HttpApiEndpoint.AnyWithProps,
  maxQueryParameters: number
): EndpointDecoders => {
  const pathParameterNames = pathParameterNamesOf(endpoint.path)
  const pathSchema = Option.getOrUndefined(endpoint.pathSchema)
  const urlParamsSchema = Option.getOrUndefined(endpoint.urlParamsSchema)
  const headersSchema = Option.getOrUndefined(endpoint.headersSchema)
  const payloadSchema = Option.getOrUndefined(endpoint.payloadSchema)

  let path: EndpointDecoders["path"]
  if (pathSchema !== undefined) {
    const decode = compile(pathSchema, "INVALID_PATH", "path parameter")
    const decodeRaw = (raw: ReadonlyArray<string>) => {
      const values: Record<string, string> = {}
      for (let i = 0; i < pathParameterNames.length; i++) {
        const value = decodePercent(raw[i] ?? "")
        if (value === undefined) return Either.left(badRequest("INVALID_PATH", `bad percent-encoding in the path`))
        values[pathParameterNames[i]!] = value
      }
      return decode(values)
    }
    // Hot reads ask for the same few vaults over and over; their base58 checks need not be redone.
    const recent = new RecentDecodes()
    // No closure per request (a cached read is the common case): look up, decode only on a miss.
    path = (raw) => {
      const key = raw.length === 1 ? raw[0]! : raw.join("/")
      return recent.get(key) ?? recent.add(key, decodeRaw(raw))
    }
  }

  let query: EndpointDecoders["query"]
  if (urlParamsSchema !== undefined) {
    const decode = compile(urlParamsSchema, "INVALID_QUERY", "query parameter")
    const arrayKeys = arrayKeysOf(urlParamsSchema)
    query = (raw) =>
      parseQuery(raw, maxQueryParameters).pipe(
        Either.mapLeft((message) => badRequest("INVALID_QUERY", message)),
        Either.flatMap((values) => normaliseRepeats(values, arrayKeys)),
        Either.flatMap(decode)
      )
  }

  const headers = headersSchema === undefined ? undefined : compile(headersSchema, "BAD_REQUEST", "header")

  let payload: EndpointDecoders["payload"]
  if (payloadSchema !== undefined) {
    const decode = compile(payloadSchema, "INVALID_BODY", "body")
    payload = (body) => {
      let json: unknown
      try {
        json = JSON.parse(body.toString("utf8"))
      } catch {
        return Either.left(badRequest("MALFORMED_JSON", body.length === 0 ? "the body is empty" : "the body is not valid JSON"))
      }
      return decode(json)
    }
  }

  return { pathParameterNames, path, query, headers, payload }
}
