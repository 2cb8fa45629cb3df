import * as HttpApi from "@effect/platform/HttpApi"
import type * as HttpApiEndpoint from "@effect/platform/HttpApiEndpoint"
import type * as HttpApiGroup from "@effect/platform/HttpApiGroup"
import { Context, Either, Option, ParseResult, Schema, type SchemaAST } from "effect"
import type { Effect } from "effect"
import { CacheControl, type CorsPolicy, MaxBodyBytes, PublicCors } from "../../src/api/annotations.ts"
import { DEFAULT_CORS } from "./cors.ts"
import { groupImplementationTag } from "../../src/api/handlers.ts"
import { middlewareImplementationTag, type MiddlewareRuntime } from "../../src/api/middleware.ts"
import { PreEncoded } from "../../src/api/preEncoded.ts"
import { compileDecoders, type EndpointDecoders } from "./decodeRequest.ts"
import { type ErrorTable, errorTableOf } from "./errorMapping.ts"
import type { RouteMethod } from "./HttpServer.ts"
import type { HttpLimits } from "./limits.ts"

/** One contract endpoint, prepared for serving: everything a request needs, computed once. */
export interface CompiledRoute {
  /** `group.endpoint`, for logs. */
  readonly id: string
  /** `GET /status`, the span name. */
  readonly name: string
  readonly method: Exclude<RouteMethod, "ANY">
  /** uWS pattern (the contract's `/:param` syntax is also uWS's). */
  readonly pattern: string
  readonly decoders: EndpointDecoders
  readonly errors: ErrorTable
  readonly encodeSuccess: (value: unknown) => Either.Either<EncodedSuccess, ParseResult.ParseIssue>
  /** The status a `PreEncoded` body goes out with (the first success status declared). */
  readonly preEncodedStatus: number
  readonly handler: (input: any) => Effect.Effect<unknown, unknown, any>
  readonly middleware: ReadonlyArray<MiddlewareRuntime>
  readonly cacheControl: string
  readonly maxBodyBytes: number
  /** A public route's CORS: its headers on every answer, `OPTIONS` preflight served; null on other routes. */
  readonly cors: CorsPolicy | null
}

export interface EncodedSuccess {
  readonly status: number
  readonly body: string | Uint8Array
}

const corsPolicyOf = (annotation: boolean | CorsPolicy): CorsPolicy | null =>
  annotation === false ? null : annotation === true ? DEFAULT_CORS : annotation

const METHODS: ReadonlySet<string> = new Set(["GET", "POST", "PUT", "PATCH", "DELETE", "OPTIONS", "HEAD"])
const BODYLESS: ReadonlySet<string> = new Set(["GET", "HEAD", "OPTIONS"])

const successEncoderOf = (
  successes: ReadonlyMap<number, { readonly ast: Option.Option<SchemaAST.AST> }>
): CompiledRoute["encodeSuccess"] => {
  const members = [...successes].map(([status, { ast }]) => {
    const schema = Option.getOrUndefined(Option.map(ast, (ast) => Schema.make(ast)))
    return {
      status,
      is: schema === undefined ? (value: unknown) => value === undefined : Schema.is(Schema.typeSchema(schema)),
      encode: schema === undefined
        ? (): Either.Either<EncodedSuccess, ParseResult.ParseIssue> => Either.right({ status, body: "" })
        : (value: unknown) =>
          Either.map(ParseResult.encodeUnknownEither(schema)(value), (encoded) => ({
            status,
            body: JSON.stringify(encoded)
          }))
    }
  })
  const first = members[0]!
  if (members.length === 1) {
    return (value) => value instanceof PreEncoded ? Either.right({ status: first.status, body: value.wire }) : first.encode(value)
  }
  return (value) => {
    // With several success statuses a pre-encoded body goes out with the first one declared.
    if (value instanceof PreEncoded) return Either.right({ status: first.status, body: value.wire })
    return (members.find((member) => member.is(value)) ?? first).encode(value)
  }
}

/**
 * Reads the contract with `HttpApi.reflect` and pairs each endpoint with its handler and
 * middleware implementations from `context`. Throws, naming the endpoint, on anything the transport
 * cannot serve faithfully: that is a programming error to catch at start-up, not per request.
 */
export const compileRoutes = (
  api: HttpApi.HttpApi.Any,
  context: Context.Context<never>,
  limits: HttpLimits
): ReadonlyArray<CompiledRoute> => {
  const routes: Array<CompiledRoute> = []
  const seen = new Set<string>()
  const apiWithProps = api as unknown as HttpApi.HttpApi<string, HttpApiGroup.HttpApiGroup.AnyWithProps>
  HttpApi.reflect(apiWithProps, {
    onGroup: () => {},
    onEndpoint: ({ endpoint, errors, group, mergedAnnotations, middleware, successes }) => {
      const id = `${group.identifier}.${endpoint.name}`
      const method = endpoint.method.toUpperCase()
      const where = `endpoint ${id} (${method} ${endpoint.path})`
      if (!METHODS.has(method)) throw new Error(`${where}: method not supported`)
      if (/[*?]/.test(endpoint.path)) throw new Error(`${where}: wildcard and optional path segments are not supported`)
      // uWS tells `/a/:x` and `/a/:y` apart by position only.
      const shape = `${method} ${endpoint.path.replace(/:[^/]+/g, ":")}`
      if (seen.has(shape)) throw new Error(`${where}: another endpoint has the same method and path`)
      seen.add(shape)
      if (Option.isSome(endpoint.payloadSchema) && BODYLESS.has(method)) {
        throw new Error(`${where}: a ${method} has no body; declare query parameters with setUrlParams`)
      }
      const errorTable = errorTableOf(errors, where)
      if (Option.isSome(endpoint.payloadSchema) && !errors.has(413)) {
        throw new Error(`${where}: it takes a body, so it must declare PayloadTooLargeResponse`)
      }
      const implementation = Context.getOption(context, groupImplementationTag(apiWithProps.identifier, group.identifier))
      const handler = Option.getOrUndefined(implementation)?.handlers[endpoint.name]
      if (handler === undefined) throw new Error(`${where}: no handler (is the group's implementGroup layer provided?)`)
      const middlewareRuntimes = [...middleware].map((tag) => {
        const runtime = Context.getOption(context, middlewareImplementationTag(tag))
        if (Option.isNone(runtime)) throw new Error(`${where}: middleware ${tag.key} has no implementation`)
        return runtime.value
      })
      routes.push({
        id,
        name: `${method} ${endpoint.path}`,
        method: method as CompiledRoute["method"],
        pattern: endpoint.path,
        decoders: compileDecoders(endpoint as unknown as HttpApiEndpoint.HttpApiEndpoint.AnyWithProps, limits.maxQueryParameters),
        errors: errorTable,
        encodeSuccess: successEncoderOf(successes),
        preEncodedStatus: successes.keys().next().value ?? 200,
        handler,
        middleware: middlewareRuntimes,
        cacheControl: Context.getOrElse(mergedAnnotations, CacheControl, () => "no-store"),
        maxBodyBytes: Context.getOrElse(mergedAnnotations, MaxBodyBytes, () => limits.maxBodyBytes),
        cors: corsPolicyOf(Context.getOrElse(mergedAnnotations, PublicCors, () => false))
      })
    }
  })
  return routes
}
