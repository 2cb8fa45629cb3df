import { Context } from "effect"

/**
 * Per-route behaviour of the transport, declared in the contract with `endpoint.annotate(Tag, value)`
 * or `group.annotate(Tag, value)` (the endpoint wins) and read once when routes are registered.
 * Behaviour that needs code per request (credentials, quotas) is an `HttpApiMiddleware` instead
 * (see `middleware.ts`).
 */

/** Largest request body accepted, in bytes; over it -> 413 `PAYLOAD_TOO_LARGE`. */
export class MaxBodyBytes extends Context.Tag("vault-gateway/api/MaxBodyBytes")<MaxBodyBytes, number>() {}

/** `Cache-Control` of successful responses; the default is `no-store` (reads reflect live state). */
export class CacheControl extends Context.Tag("vault-gateway/api/CacheControl")<CacheControl, string>() {}

/**
 * The CORS a public route asks for beyond `Access-Control-Allow-Origin: *` (which every public
 * route has), for a protocol that prescribes its own (Solana Actions).
 */
export interface CorsPolicy {
  /** What the preflight allows; the path's own methods when absent. */
  readonly allowMethods?: string
  readonly allowHeaders: string
  readonly exposeHeaders: string
  /** Headers every answer of the route carries, success or error. */
  readonly answerHeaders?: ReadonlyArray<readonly [name: string, value: string]>
}

/**
 * A public route browsers call directly: every answer carries CORS headers and `OPTIONS` preflight
 * is answered (`true`: the API's default policy). Partner routes never set it (a key never belongs
 * in a browser).
 */
export class PublicCors extends Context.Tag("vault-gateway/api/PublicCors")<PublicCors, boolean | CorsPolicy>() {}
