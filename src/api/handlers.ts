import type * as HttpApi from "@effect/platform/HttpApi"
import type * as HttpApiEndpoint from "@effect/platform/HttpApiEndpoint"
import type * as HttpApiError from "@effect/platform/HttpApiError"
import type * as HttpApiGroup from "@effect/platform/HttpApiGroup"
import type * as HttpApiMiddleware from "@effect/platform/HttpApiMiddleware"
import { Context, Effect, Layer } from "effect"
import type { Simplify } from "effect/Types"
import type { PreEncoded } from "./preEncoded.ts"
import type { WithHeaders } from "./withHeaders.ts"

/** What the transport read from the request before anything asynchronous (uWS frees it after). */
export interface RequestInfo {
  /** Also sent back as `X-Request-Id` and written on every log line about the request. */
  readonly id: string
  /** Upper-case, e.g. `GET`. */
  readonly method: string
  /** The URL path as received (not percent-decoded). */
  readonly path: string
  /** The raw query string without `?`, or "". */
  readonly query: string
  /** A header by its lower-case name (repeated ones joined with ", "), undefined when absent. */
  header(name: string): string | undefined
  /** The peer's IP address as text (the transport reads it from the socket on first use). */
  readonly remoteAddress: string
}

type Endpoint = HttpApiEndpoint.HttpApiEndpoint.Any
type Group = HttpApiGroup.HttpApiGroup.Any

/** The decoded request an endpoint's handler receives: only the parts its contract declares. */
export type HandlerInput<E> = E extends HttpApiEndpoint.HttpApiEndpoint<
  infer _Name,
  infer _Method,
  infer Path,
  infer UrlParams,
  infer Payload,
  infer Headers,
  infer _Success,
  infer _Error,
  infer _R,
  infer _RE
> ? Simplify<
    & ([Path] extends [never] ? {} : { readonly path: Path })
    & ([UrlParams] extends [never] ? {} : { readonly urlParams: UrlParams })
    & ([Payload] extends [never] ? {} : { readonly payload: Payload })
    & ([Headers] extends [never] ? {} : { readonly headers: Headers })
    & { readonly request: RequestInfo }
  >
  : never

/** Services the endpoint's (and its group's) middleware provide to the handler. */
export type MiddlewareProvided<G, E> = HttpApiMiddleware.HttpApiMiddleware.ExtractProvides<
  HttpApiGroup.HttpApiGroup.Middleware<G> | HttpApiEndpoint.HttpApiEndpoint.Context<E>
>

/**
 * A handler: the success (or a `PreEncoded` body of it), or one of the errors the contract declares
 * for the endpoint, its group or the whole API. Other services are taken when the group's layer is
 * built, so a handler needs nothing per request but what middleware provides.
 */
export type EndpointHandler<G, E extends Endpoint, ApiError> = (
  input: HandlerInput<E>
) => Effect.Effect<
  HttpApiEndpoint.HttpApiEndpoint.Success<E> | PreEncoded | WithHeaders<HttpApiEndpoint.HttpApiEndpoint.Success<E>>,
  | HttpApiEndpoint.HttpApiEndpoint.Error<E>
  | HttpApiGroup.HttpApiGroup.Error<G>
  | Exclude<ApiError, HttpApiError.HttpApiDecodeError>,
  MiddlewareProvided<G, E>
>

/** One handler per endpoint of the group, by endpoint name; a missing one does not compile. */
export type GroupHandlers<G extends Group, ApiError> = {
  readonly [Name in HttpApiEndpoint.HttpApiEndpoint.Name<HttpApiGroup.HttpApiGroup.Endpoints<G>>]: EndpointHandler<
    G,
    HttpApiEndpoint.HttpApiEndpoint.WithName<HttpApiGroup.HttpApiGroup.Endpoints<G>, Name>,
    ApiError
  >
}

declare const GroupImplementationId: unique symbol

/** The service under which a group's handlers are provided to the transport. */
export interface GroupImplementation<ApiId extends string, Name extends string> {
  readonly [GroupImplementationId]: { readonly api: ApiId; readonly group: Name }
}

/** The untyped view the transport uses; the types were checked by `implementGroup`. */
export interface GroupRuntime {
  readonly handlers: Readonly<Record<string, (input: any) => Effect.Effect<unknown, unknown, any>>>
}

export const groupImplementationTag = <ApiId extends string, Name extends string>(apiId: ApiId, group: Name) =>
  Context.GenericTag<GroupImplementation<ApiId, Name>, GroupRuntime>(`vault-gateway/api/${apiId}/group/${group}`)

/** Every group implementation an API needs before its routes can be served. */
export type ApiGroupImplementations<Api> = Api extends HttpApi.HttpApi<infer Id, infer Groups, infer _E, infer _R>
  ? GroupImplementationOf<Id, HttpApiGroup.HttpApiGroup.Name<Groups>>
  : never
type GroupImplementationOf<Id extends string, Name> = Name extends string ? GroupImplementation<Id, Name> : never

/**
 * Implements one group of an API: `build` takes the services the handlers need and returns the
 * handlers by endpoint name.
 *
 * ```ts
 * export const SystemHandlersLive = implementGroup(Api, "system", Effect.gen(function*() {
 *   const projection = yield* Projection
 *   return { status: () => projection.status.pipe(Effect.map(toBody)), ... }
 * }))
 * ```
 */
export const implementGroup = <
  ApiId extends string,
  Groups extends Group,
  ApiError,
  ApiR,
  const Name extends HttpApiGroup.HttpApiGroup.Name<Groups>,
  E,
  R
>(
  api: HttpApi.HttpApi<ApiId, Groups, ApiError, ApiR>,
  group: Name,
  build: Effect.Effect<GroupHandlers<HttpApiGroup.HttpApiGroup.WithName<Groups, Name>, ApiError>, E, R>
): Layer.Layer<GroupImplementation<ApiId, Name>, E, R> =>
  Layer.effect(
    groupImplementationTag(api.identifier, group),
    Effect.map(build, (handlers): GroupRuntime => ({ handlers: handlers as GroupRuntime["handlers"] }))
  )
