import type * as HttpApi from "@effect/platform/HttpApi"
import type * as HttpApiEndpoint from "@effect/platform/HttpApiEndpoint"
import type * as HttpApiGroup from "@effect/platform/HttpApiGroup"
import type * as HttpApiMiddleware from "@effect/platform/HttpApiMiddleware"
import { Context, Effect, Exit, Layer, type Schema } from "effect"
import type { RequestInfo } from "./handlers.ts"
import { type HeaderList, HeaderLines } from "./headerLines.ts"
import { isExitEffect } from "./settledTags.ts"

/**
 * The per-request middleware seam. The contract declares a middleware as an `HttpApiMiddleware.Tag`
 * (its failures, the service it provides, and its security scheme, which OpenAPI documents) and
 * attaches it to groups or endpoints. The implementation given here runs in the transport before
 * the handler of every endpoint that has the middleware: it reads the request (headers, peer
 * address), may fail with one of the declared errors (mapped to HTTP like any other), may add
 * response headers (e.g. `X-RateLimit-*` on every keyed response), and provides its service to the
 * handler. Serving an API whose middleware has no implementation does not compile. It runs per
 * request, so it carries no span of its own (a span costs more than a projection read; the
 * transport's per-request span, when enabled, covers it).
 */

declare const MiddlewareImplementationId: unique symbol

export interface MiddlewareImplementation<Id> {
  readonly [MiddlewareImplementationId]: Id
}

type ProvidedService<M> = M extends { readonly provides: Context.Tag<any, infer S> } ? S : void
type Failure<M> = M extends { readonly failure: Schema.Schema<infer A, infer _I, infer _R> } ? A : never

/** What a middleware implementation returns when the request may go on. */
export type MiddlewarePass<M> =
  & ([ProvidedService<M>] extends [void] ? {} : { readonly provides: ProvidedService<M> })
  & { readonly headers?: HeaderList | HeaderLines }

/** What a middleware hands the transport when the request may go on. */
export interface MiddlewarePassed {
  readonly context: Context.Context<never>
  readonly headers: HeaderLines
}

export interface MiddlewareRuntime {
  /**
   * An `Exit` when the implementation answered without an asynchronous step (a cached key record and
   * an in-memory quota): the transport then runs no fiber for it. Any other effect is run as usual.
   */
  readonly run: (request: RequestInfo) => Effect.Effect<MiddlewarePassed, unknown>
}

/** An `HttpApiMiddleware.Tag` class, with or without a security scheme. */
export interface MiddlewareTag extends Context.Tag<any, any> {
  readonly failure: Schema.Schema.All
  readonly provides?: Context.Tag<any, any> | undefined
}

const implementationTags = new Map<string, Context.Tag<MiddlewareImplementation<unknown>, MiddlewareRuntime>>()

/** The service under which a middleware's implementation is provided (one tag per middleware, reused: looked up per request). */
export const middlewareImplementationTag = (middleware: { readonly key: string }) => {
  let tag = implementationTags.get(middleware.key)
  if (tag === undefined) {
    tag = Context.GenericTag<MiddlewareImplementation<unknown>, MiddlewareRuntime>(`vault-gateway/api/middleware/${middleware.key}`)
    implementationTags.set(middleware.key, tag)
  }
  return tag
}

/** Every middleware implementation an API needs (from its groups and endpoints). */
export type ApiMiddlewareImplementations<Api> = Api extends HttpApi.HttpApi<infer _Id, infer Groups, infer _E, infer _R>
  ? MiddlewareImplementationOf<
    HttpApiMiddleware.HttpApiMiddleware.Only<
      | HttpApiGroup.HttpApiGroup.Middleware<Groups>
      | HttpApiEndpoint.HttpApiEndpoint.Context<HttpApiGroup.HttpApiGroup.Endpoints<Groups>>
    >
  >
  : never
type MiddlewareImplementationOf<Id> = Id extends unknown ? MiddlewareImplementation<Id> : never

/**
 * Implements a contract middleware for the uWS transport. An implementation that can decide at once
 * should return an `Exit` (`Exit.succeed`, `Exit.fail`; note that `Effect.fail` of an object is not
 * one): the request then passes through it without a fiber.
 */
export const implementMiddleware = <M extends MiddlewareTag, R = never>(
  middleware: M,
  run: (request: RequestInfo) => Effect.Effect<MiddlewarePass<M>, Failure<M>, R>
): Layer.Layer<MiddlewareImplementation<Context.Tag.Identifier<M>>, never, R> =>
  Layer.effect(
    middlewareImplementationTag(middleware),
    Effect.map(Effect.context<R>(), (context): MiddlewareRuntime => {
      const provides = middleware.provides
      // An implementation that hands out the same service object again (one per key record, say)
      // gets the same context back instead of a new one per request.
      const contexts = new WeakMap<object, Context.Context<never>>()
      const contextOf = (service: unknown): Context.Context<never> => {
        if (provides === undefined) return Context.empty()
        if (typeof service !== "object" || service === null) return Context.make(provides, service) as Context.Context<never>
        let context = contexts.get(service)
        if (context === undefined) contexts.set(service, context = Context.make(provides, service) as Context.Context<never>)
        return context
      }
      const passed = (pass: MiddlewarePass<M>): MiddlewarePassed => ({
        context: contextOf((pass as { readonly provides?: unknown }).provides),
        headers: pass.headers === undefined ? HeaderLines.empty : HeaderLines.of(pass.headers)
      })
      return {
        run: (request) => {
          const outcome = run(request)
          // A failure carries no value: the same object serves as the failure passed on.
          if (isExitEffect(outcome)) return outcome._tag === "Success" ? Exit.succeed(passed(outcome.value)) : outcome as Exit.Exit<never, unknown>
          return outcome.pipe(Effect.provide(context), Effect.map(passed))
        }
      }
    })
  ) as Layer.Layer<MiddlewareImplementation<Context.Tag.Identifier<M>>, never, R>
